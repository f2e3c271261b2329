import {
  countText,
  type SiteOption,
  shortDate,
  type WorklistData,
  type WorklistRow,
  type WorklistState,
  windowText,
  worklistHorizonDays,
  worklistStates,
} from "@trialdesk/domain";
import { useMemo } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { useActiveSite } from "../../app/site";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { NoSiteChosen } from "../../screens/site-scoped";
import { VisitStateBadge, visitStateColors } from "./visit-state";

/** The filter chips of the worklist (issue 12), in this order; unscheduled rows have no chip. */
export const worklistChips: { state: WorklistState; label: string }[] = [
  { state: "due", label: "Due" },
  { state: "overdue", label: "Overdue" },
  { state: "booked", label: "Booked" },
  // The worklist holds only visits whose window opens within the horizon.
  { state: "upcoming", label: `Upcoming (next ${worklistHorizonDays} days)` },
  { state: "out-of-window", label: "Out of window" },
];

/** The chosen states from the URL's `state=due,overdue`; unknown words are dropped. */
export function chosenStates(param: string | null): WorklistState[] {
  const words = (param ?? "").split(",");
  return worklistStates.filter((state) => words.includes(state));
}

const dateText = (iso: string | null) => (iso ? shortDate(iso) : "—");

/**
 * Where Record visit leads: the recorded visit's editor when the row has one (a booking), else a new
 * visit with patient, study and visit chosen. `returnTo` brings the user back to this worklist page.
 */
export function recordVisitRoute(row: WorklistRow, returnTo: string): string {
  const back = new URLSearchParams({ returnTo });
  if (row.patientVisitUuid) return `/patient-visits/${row.patientVisitUuid}/edit?${back}`;
  const params = new URLSearchParams({
    patientId: String(row.patientId),
    studyId: String(row.studyId),
    visitId: String(row.visitId),
    returnTo,
  });
  return `/patient-visits/create?${params}`;
}

function StateChips({
  counts,
  chosen,
  onToggle,
}: {
  counts: Partial<Record<WorklistState, number>> | undefined;
  chosen: WorklistState[];
  onToggle: (state: WorklistState) => void;
}) {
  return (
    <fieldset className="flex flex-wrap gap-2">
      <legend className="sr-only">Show visits that are</legend>
      {worklistChips.map(({ state, label }) => {
        const on = chosen.includes(state);
        return (
          <button
            key={state}
            type="button"
            aria-pressed={on}
            onClick={() => onToggle(state)}
            className={`inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 ${
              on
                ? "border-blue-700 bg-blue-700 text-white"
                : "border-gray-300 bg-white text-gray-800 hover:bg-gray-50"
            }`}
          >
            {label}{" "}
            <span
              className={`min-w-6 rounded-full px-1.5 text-center text-xs tabular-nums ${on ? "bg-white text-blue-900" : visitStateColors[state]}`}
            >
              {counts?.[state] === undefined ? "…" : countText(counts[state])}
            </span>
          </button>
        );
      })}
    </fieldset>
  );
}

const listOf = (
  site: SiteOption,
  chosen: WorklistState[],
  onToggle: (state: WorklistState) => void,
  returnTo: string,
): ListDescription<WorklistRow> => ({
  resource: "worklist",
  title: "Worklist",
  rowId: "rowId",
  // Counts ignore the state filter, so the chips always show what each one would list.
  query: { siteId: site.id, state: chosen.length ? chosen.join(",") : undefined },
  searchParam: "search",
  options: { add: false, edit: false, view: false, remove: false },
  toolbar: (answer) => (
    <StateChips counts={(answer as WorklistData | undefined)?.counts} chosen={chosen} onToggle={onToggle} />
  ),
  columns: [
    {
      key: "patientName",
      title: "Patient",
      className: "whitespace-nowrap",
      format: (row) => (
        <span className="flex flex-col">
          <span className="text-xs text-gray-600 tabular-nums">{row.barcode}</span>
          <span className="font-medium">{row.patientName}</span>
        </span>
      ),
    },
    { key: "studyName", title: "Study", className: "whitespace-nowrap" },
    { key: "visitName", title: "Visit" },
    // Ordered by the window's end (the server's only order); the header flips it.
    {
      key: "windowEnd",
      title: "Window",
      sortable: true,
      format: (row) => <WindowCell text={windowText(row)} />,
    },
    {
      key: "expectedDate",
      title: "Expected",
      format: (row) => dateText(row.expectedDate),
      className: "whitespace-nowrap",
    },
    { key: "state", title: "State", format: (row) => <VisitStateBadge state={row.state} /> },
    {
      key: "visitDate",
      title: "Booked for",
      format: (row) =>
        row.state === "booked" && row.visitDate ? (
          // The note may wrap: kept on one line it widened the table past a 1280 px screen.
          <span className="flex flex-col">
            <span className="whitespace-nowrap">{dateText(row.visitDate)}</span>
            {row.bookedOutsideWindow && (
              <span className="text-xs font-medium text-amber-800">Outside the planned window</span>
            )}
          </span>
        ) : (
          ""
        ),
    },
  ],
  rowActions: (row) => (
    <Link
      to={recordVisitRoute(row, returnTo)}
      aria-label={`Record visit ${row.visitName} of ${row.patientName}`}
      className="rounded-md border border-gray-300 px-2 py-1 text-xs font-medium text-blue-800 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600"
    >
      Record visit
    </Link>
  ),
});

/**
 * A window may break after its dash and nowhere else, so that the worklist fits a 1280 px screen
 * beside the menu with its Record visit buttons.
 */
function WindowCell({ text }: { text: string }) {
  if (!text) return "—";
  const [start, end] = text.split(" – ");
  return end ? (
    <>
      <span className="whitespace-nowrap">{start} –</span> <span className="whitespace-nowrap">{end}</span>
    </>
  ) : (
    <span className="whitespace-nowrap">{start}</span>
  );
}

/**
 * The site worklist (issue 12): the active site's visits that need doing, ordered by the end of their
 * window, filtered by state chips (kept in the URL with search and page), each with Record visit.
 */
export function WorklistScreen() {
  const { site } = useActiveSite();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const stateParam = params.get("state");
  const returnTo = `${location.pathname}${location.search}`;
  const description = useMemo(() => {
    if (!site) return null;
    const chosen = chosenStates(stateParam);
    const toggle = (state: WorklistState) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        const states = chosen.includes(state) ? chosen.filter((s) => s !== state) : [...chosen, state];
        if (states.length) next.set("state", states.join(","));
        else next.delete("state");
        // Another filter starts again at page 1.
        next.delete("page");
        return next;
      });
    return listOf(site, chosen, toggle, returnTo);
  }, [site, stateParam, setParams, returnTo]);
  return description ? <ListScreen description={description} /> : <NoSiteChosen />;
}
