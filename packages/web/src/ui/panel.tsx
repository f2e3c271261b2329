import { ArrowLeft } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { Button } from "./button";

/** The white card every screen sits in (list, form, detail, history, the studyplan editor). */
export function Panel({ className = "", ...props }: ComponentProps<"section">) {
  return (
    <section className={`rounded-lg border border-gray-200 bg-white shadow-sm ${className}`} {...props} />
  );
}

/** A screen's title bar (form, detail, the studyplan editor): the heading, Back, then the screen's own actions. */
export function PanelHeader({
  title,
  titleId,
  onBack,
  children,
}: {
  title: ReactNode;
  titleId?: string;
  onBack: () => void;
  children?: ReactNode;
}) {
  return (
    <header className="flex flex-wrap items-center justify-between gap-3 border-b border-gray-200 px-4 py-3">
      <h1 id={titleId} className="text-xl font-semibold text-gray-900">
        {title}
      </h1>
      {/* Buttons mean nothing on paper: a printed screen (a statement) shows its heading alone. */}
      <div className="flex items-center gap-2 print:hidden">
        <Button variant="secondary" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back
        </Button>
        {children}
      </div>
    </header>
  );
}

const tones = {
  error: "border-red-300 bg-red-50 font-medium text-red-800",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  note: "border-gray-200 bg-gray-50 text-gray-700",
};

/**
 * A message bar inside a screen: a refused save (error), something to know before saving (warning),
 * or how the screen behaves for this user (note). Its role says how assistive tech announces it.
 */
export function Banner({
  tone,
  className = "",
  ...props
}: ComponentProps<"p"> & { tone: keyof typeof tones; role: "alert" | "status" | "note" }) {
  return <p className={`rounded-md border px-3 py-2 text-sm ${tones[tone]} ${className}`} {...props} />;
}
