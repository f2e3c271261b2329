import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { displayName } from "@trialdesk/domain";
import { ChevronDown, CircleUser, KeyRound, LogOut, Mail, Settings, User } from "lucide-react";
import { useNavigate } from "react-router";
import { useSession } from "./session";

const itemClass =
  "flex cursor-default items-center gap-2 rounded px-2 py-1.5 text-sm text-gray-800 outline-none data-[disabled]:text-gray-500 data-[highlighted]:bg-gray-100";

/**
 * The user dropdown of spec §2.5: Profile, name, e-mail, Change password, Settings, Log out. Only
 * Change password and Log out act (the spec does not show the others' actions), so the rest are
 * shown disabled.
 */
export function UserMenu() {
  const { user } = useSession();
  const navigate = useNavigate();
  if (!user) return null;
  const name = displayName(user);
  return (
    // Not modal and not portalled: the open menu stays inside the banner landmark and the page
    // stays visible to assistive tech.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label="User menu"
        className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        <CircleUser aria-hidden className="size-5 text-gray-600" />
        <span className="hidden sm:inline">{name}</span>
        <ChevronDown aria-hidden className="size-4 text-gray-500" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Content
        align="end"
        sideOffset={4}
        className="z-50 min-w-56 rounded-md border border-gray-200 bg-white p-1 shadow-lg"
      >
        <DropdownMenu.Label className="px-2 py-1.5 text-xs font-semibold uppercase tracking-wide text-gray-500">
          Profile
        </DropdownMenu.Label>
        <DropdownMenu.Item disabled className={itemClass}>
          <User aria-hidden className="size-4" />
          {name}
        </DropdownMenu.Item>
        <DropdownMenu.Item disabled className={itemClass}>
          <Mail aria-hidden className="size-4" />
          {user.email}
        </DropdownMenu.Item>
        <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
        <DropdownMenu.Item className={itemClass} onSelect={() => navigate("/change-password")}>
          <KeyRound aria-hidden className="size-4" />
          Change password
        </DropdownMenu.Item>
        <DropdownMenu.Item disabled className={itemClass}>
          <Settings aria-hidden className="size-4" />
          Settings
        </DropdownMenu.Item>
        <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
        <DropdownMenu.Item className={itemClass} onSelect={() => navigate("/logout")}>
          <LogOut aria-hidden className="size-4" />
          Log out
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
