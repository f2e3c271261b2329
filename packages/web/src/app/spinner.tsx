import { LoaderCircle } from "lucide-react";

/** The spinner shown while the session starts (spec §2.1): named "Loading" for assistive tech. */
export function PageSpinner() {
  return (
    <div role="status" aria-label="Loading" className="flex min-h-[50vh] flex-1 items-center justify-center">
      <LoaderCircle aria-hidden className="size-8 animate-spin text-blue-700" />
    </div>
  );
}
