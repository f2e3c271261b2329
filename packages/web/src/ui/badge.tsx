import type { ReactNode } from "react";

export type BadgeColor = "green" | "amber" | "red" | "blue" | "gray";

const colors: Record<BadgeColor, string> = {
  green: "bg-green-100 text-green-800 ring-green-600/20",
  amber: "bg-amber-100 text-amber-800 ring-amber-600/20",
  red: "bg-red-100 text-red-800 ring-red-600/20",
  blue: "bg-blue-100 text-blue-800 ring-blue-600/20",
  gray: "bg-gray-100 text-gray-700 ring-gray-500/20",
};

/** A small status label, e.g. the green Active / red Inactive badges of the lists. */
export function Badge({ color = "gray", children }: { color?: BadgeColor; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${colors[color]}`}
    >
      {children}
    </span>
  );
}
