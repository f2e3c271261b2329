import type { ComponentProps } from "react";

/** The white card every screen sits in (list, form, detail, history, the studyplan editor). */
export function Panel({ className = "", ...props }: ComponentProps<"section">) {
  return (
    <section className={`rounded-lg border border-gray-200 bg-white shadow-sm ${className}`} {...props} />
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
