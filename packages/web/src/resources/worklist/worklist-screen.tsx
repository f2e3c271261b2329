import { useQuery } from "@tanstack/react-query";
import {
  bookingPassedText,
  countText,
  daysOutsideText,
  type ListData,
  type SiteOption,
  shortDate,
  type WorklistData,
  type WorklistRow,
  type WorklistState,
  windowText,
  worklistHorizonDays,
  worklistStateLabel,
  worklistStates,
} from "@trialdesk/domain";
import { MessageCircleQuestion } from "lucide-react";
import { useMemo } from "react";
import { Link, useLocation } from "react-router";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queries";
import { useActiveSite } from "../../app/site";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { NoSiteChosen } from "../../screens/site-scoped";
import { useUrlParams } from "../../screens/url-params";
import { VisitStateBadge, visitStateColors } from "./visit-state";

/**
 * The filter chips of the worklist (issues 12, 43), in the engine's order: what can still be done,
 * then Missed and Deviations open, which the default view (no chip) leaves out.
 */
export const worklistChips: { state: WorklistState; label: string }[] = worklistStates.map((state) => ({
  state,
  // The worklist holds only visits whose window opens within the horizon.
  label: state === "upcoming" ? `Upcoming (next ${worklistHorizonDays} days)` : worklistStateLabel(state),
}));

/** A chip's count in its state's colour; "Deviations open" in that of a visit out of its window. */
const chipColor = (state: WorklistState) =>
  visitStateColors[state === "deviations-open" ? "out-of-window" : state];

/** The chosen states from the URL's `state=due,overdue`; unknown words are dropped. */
export function chosenStates(param: string | null): WorklistState[] {
  const words = (param ?? "").split(",");
  return worklistStates.filter((state) => words.includes(state));
}

const dateText = (iso: string | null) => (iso ? shortDate(iso) : "—");

/**
 * Where Record visit leads: always a new record with patient, study and visit chosen, never one of its
 * earlier records (issue 43: a booking keeps what happened). `returnTo` brings the user back here.
 */
export function recordVisitRoute(row: WorklistRow, returnTo: string): string {
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
              className={`min-w-6 rounded-full px-1.5 text-center text-xs tabular-nums ${on ? "bg-white text-blue-900" : chipColor(state)}`}
            >
              {counts?.[state] === undefined ? "…" : countText(counts[state])}
            </span>
          </button>
        );
      })}
    </fieldset>
  );
}

/** Where the Queries chip leads: the open queries, which the coordinator answers from there. */
export const openQueriesRoute = "/queries?status=OPEN";

/**
 * The site's open queries (issue 44): a chip with their count that leads to them. Only the count is
 * asked for (one row a page); it shows once known.
 */
function QueriesChip({ siteId }: { siteId: number }) {
  const query = { status: "OPEN", siteId, page: 1, pagesize: 1 };
  const open = useQuery({
    queryKey: queryKeys.list("queries", query),
    queryFn: () => api.get<ListData<unknown>>("queries", query),
  });
  const count = open.data?.pagination.total;
  return (
    <Link
      to={openQueriesRoute}
      className="inline-flex items-center gap-2 rounded-full border border-gray-300 bg-white px-3 py-1 text-sm font-medium text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
    >
      <MessageCircleQuestion aria-hidden="true" className="size-4 text-gray-600" />
      Queries
      {count !== undefined && (
        <>
          {" "}
          <span
            className={`min-w-6 rounded-full px-1.5 text-center text-xs tabular-nums ${count > 0 ? "bg-amber-100 text-amber-900" : "bg-gray-100 text-gray-700"}`}
          >
            {countText(count)}
          </span>
        </>
      )}
    </Link>
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
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <StateChips counts={(answer as WorklistData | undefined)?.counts} chosen={chosen} onToggle={onToggle} />
      <QueriesChip siteId={site.id} />
    </div>
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
    { key: "state", title: "State", format: (row) => <StateCell row={row} /> },
    {
      key: "visitDate",
      title: "Booked for",
      format: (row) =>
        (row.state === "booked" || row.bookingPassed) && row.visitDate ? (
          // The notes may wrap: kept on one line they widened the table past a 1280 px screen.
          <span className="flex flex-col">
            <span className="whitespace-nowrap">{dateText(row.visitDate)}</span>
            {row.bookedOutsideWindow && (
              <span className="text-xs font-medium text-amber-800">Outside the planned window</span>
            )}
            {row.bookingPassed && (
              <span className="text-xs font-medium text-amber-800">{bookingPassedText}</span>
            )}
          </span>
        ) : (
          ""
        ),
    },
  ],
  // A visit completed out of its window is done: what is left is its deviation's paperwork.
  rowActions: (row) =>
    row.state === "out-of-window" ? null : (
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
 * The row's state; a visit missed or completed out of its window also says how many days, and leads to
 * its deviation (else to the patient's deviations: the list searched by the patient's barcode).
 */
function StateCell({ row }: { row: WorklistRow }) {
  const days = daysOutsideText(row.daysOutside);
  return (
    <span className="flex flex-col items-start gap-0.5">
      <VisitStateBadge state={row.state} />
      {days && <span className="text-xs whitespace-nowrap text-gray-700">{days}</span>}
      {(row.deviationUuid || row.deviationStatus) && (
        <Link
          to={
            row.deviationUuid
              ? `/protocol-deviations/${row.deviationUuid}`
              : `/protocol-deviations?${new URLSearchParams({ searchTerm: row.barcode })}`
          }
          aria-label={`Deviation of ${row.visitName} of ${row.patientName}`}
          className="text-xs font-medium whitespace-nowrap text-blue-800 underline-offset-2 hover:underline"
        >
          Deviation
        </Link>
      )}
    </span>
  );
}

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
  const [params, updateParams] = useUrlParams();
  const location = useLocation();
  const stateParam = params.get("state");
  const returnTo = `${location.pathname}${location.search}`;
  const description = useMemo(() => {
    if (!site) return null;
    const chosen = chosenStates(stateParam);
    const toggle = (state: WorklistState) => {
      const states = chosen.includes(state) ? chosen.filter((s) => s !== state) : [...chosen, state];
      updateParams({ state: states.join(",") }, { resetPage: true });
    };
    return listOf(site, chosen, toggle, returnTo);
  }, [site, stateParam, updateParams, returnTo]);
  return description ? <ListScreen description={description} /> : <NoSiteChosen />;
}
