import { type VisitState, visitStateLabel } from "@trialdesk/domain";

/**
 * One colour per visit state, shared by the worklist's badges, the summary grid's cells and its
 * legend, so a state looks the same everywhere. Dark text on a light tint: every pair clears the
 * WCAG AA contrast of 4.5:1 (the accessibility suite scans both screens).
 */
export const visitStateColors: Record<VisitState, string> = {
  done: "bg-green-100 text-green-900",
  "out-of-window": "bg-orange-100 text-orange-900",
  booked: "bg-blue-100 text-blue-900",
  due: "bg-yellow-100 text-yellow-900",
  overdue: "bg-red-100 text-red-900",
  // Settled, not late: a hue of its own, apart from overdue's red (issue 43).
  missed: "bg-fuchsia-100 text-fuchsia-900",
  upcoming: "bg-violet-100 text-violet-900",
  "not-applicable": "bg-gray-100 text-gray-700",
  unscheduled: "bg-white text-gray-700",
};

/** The state as a small label: "Overdue" on red, "Due" on yellow … */
export function VisitStateBadge({ state }: { state: VisitState }) {
  return (
    <span
      className={`inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-black/10 ring-inset ${visitStateColors[state]}`}
    >
      {visitStateLabel(state)}
    </span>
  );
}
