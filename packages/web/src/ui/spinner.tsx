import { LoaderCircle } from "lucide-react";

/** A spinning indicator; with a label it is announced as a status. */
export function Spinner({ label, className = "" }: { label?: string; className?: string }) {
  return (
    <span role={label ? "status" : undefined} className={`inline-flex items-center gap-2 ${className}`}>
      <LoaderCircle aria-hidden="true" className="size-4 animate-spin text-blue-700" />
      {label && <span className="text-sm text-gray-600">{label}</span>}
    </span>
  );
}

/** The "Loading..." overlay of the form screen (spec §2.3): covers its positioned parent. */
export function LoadingOverlay({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <div className="absolute inset-0 z-10 flex items-center justify-center rounded-lg bg-white/70">
      <Spinner label="Loading..." />
    </div>
  );
}
