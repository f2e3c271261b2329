import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { displayName } from "@trialdesk/domain";
import {
  ChevronDown,
  CircleUser,
  KeyRound,
  LogOut,
  type LucideIcon,
  Mail,
  Settings,
  User,
} from "lucide-react";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import { useSession } from "./session";

/** One entry with its icon; an entry with nothing to do is shown disabled. */
function Item({
  icon: Icon,
  onSelect,
  children,
}: {
  icon: LucideIcon;
  onSelect?: () => void;
  children: ReactNode;
}) {
  return (
    <DropdownMenu.Item
      disabled={!onSelect}
      onSelect={onSelect}
      className="flex cursor-default items-center gap-2 rounded px-2 py-1.5 text-sm text-gray-800 outline-none data-[disabled]:text-gray-500 data-[highlighted]:bg-gray-100"
    >
      <Icon aria-hidden className="size-4" />
      {children}
    </DropdownMenu.Item>
  );
}

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
        <Item icon={User}>{name}</Item>
        <Item icon={Mail}>{user.email}</Item>
        <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
        <Item icon={KeyRound} onSelect={() => navigate("/change-password")}>
          Change password
        </Item>
        <Item icon={Settings}>Settings</Item>
        <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
        <Item icon={LogOut} onSelect={() => navigate("/logout")}>
          Log out
        </Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
