import { useQuery } from "@tanstack/react-query";
import type { MenuItem } from "@trialdesk/domain";
import { Circle, type LucideIcon } from "lucide-react";
import { NavLink } from "react-router";
import { myMenu } from "../api/queries";
import * as menuIcons from "./menu-icons";

/**
 * The left menu (spec §1, §6): the server decides it per user. Icons are named by the server; only
 * the ones in menu-icons are bundled; any other name shows a neutral dot.
 */
const icons: Record<string, LucideIcon> = menuIcons;

/** "flask-conical", "flask_conical", "FlaskConical" and "flaskConical" all name the same icon. */
export function menuIcon(name: string | null | undefined): LucideIcon {
  if (!name) return Circle;
  const pascal = name
    .split(/[-_\s]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
  return icons[pascal] ?? Circle;
}

export function useMenu() {
  return useQuery(myMenu);
}

export function Menu({ onNavigate }: { onNavigate?: () => void }) {
  const { data, isPending, error } = useMenu();
  return (
    <nav aria-label="Main menu" className="flex-1 overflow-y-auto px-2 py-3 text-sm">
      {isPending && <p className="px-2 text-gray-400">Loading...</p>}
      {error && <p className="px-2 text-red-700">Can not load data: {error.message}</p>}
      <ul className="space-y-0.5">
        {data?.map((item) => (
          <MenuEntry key={item.key} item={item} onNavigate={onNavigate} />
        ))}
      </ul>
    </nav>
  );
}

function MenuEntry({ item, onNavigate }: { item: MenuItem; onNavigate?: () => void }) {
  const Icon = menuIcon(item.icon);
  if (item.children.length > 0) {
    const headingId = `menu-group-${item.key}`;
    return (
      <li className="pt-3 first:pt-0">
        <p
          id={headingId}
          className="flex items-center gap-2 px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-gray-500"
        >
          <Icon aria-hidden className="size-3.5" />
          {item.label}
        </p>
        <ul aria-labelledby={headingId} className="space-y-0.5">
          {item.children.map((child) => (
            <MenuEntry key={child.key} item={child} onNavigate={onNavigate} />
          ))}
        </ul>
      </li>
    );
  }
  if (!item.route) return null;
  return (
    <li>
      <NavLink
        to={item.route}
        end={item.route === "/"}
        onClick={onNavigate}
        className={({ isActive }) =>
          `flex items-center gap-2 rounded-md px-2 py-1.5 focus-visible:outline-2 focus-visible:outline-blue-600 ${
            isActive ? "bg-blue-50 font-medium text-blue-700" : "text-gray-700 hover:bg-gray-100"
          }`
        }
      >
        <Icon aria-hidden className="size-4 shrink-0" />
        {item.label}
      </NavLink>
    </li>
  );
}
