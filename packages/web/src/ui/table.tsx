import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

/**
 * The list table: its area is at most the viewport minus 190 px high (spec §2.2) and scrolls under
 * a sticky header.
 */
export function TableArea({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div className="max-h-[calc(100vh-190px)] overflow-auto rounded-md border border-gray-200">
      <table aria-label={label} className="w-full border-collapse text-left text-sm">
        {children}
      </table>
    </div>
  );
}

export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      className={`sticky top-0 z-[1] border-b border-gray-200 bg-gray-100 px-3 py-2 text-xs font-semibold text-gray-700 ${className}`}
      {...props}
    />
  );
}

export function Td({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`border-b border-gray-100 px-3 py-1.5 text-gray-900 ${className}`} {...props} />;
}
