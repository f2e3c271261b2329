import { useQuery } from "@tanstack/react-query";
import {
  bookingPassedText,
  countText,
  daysOutsideText,
  isActiveStatus,
  isValidIsoDate,
  type ListData,
  type SiteOption,
  shortDate,
  type VisitState,
  type WorklistData,
  type WorklistRow,
  type WorklistState,
  windowText,
  worklistHorizonDays,
  worklistStateLabel,
  worklistStates,
} from "@trialdesk/domain";
import { MessageCircleQuestion } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { Link, useLocation } from "react-router";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queries";
import { useActiveSite } from "../../app/site";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { NoSiteChosen } from "../../screens/site-scoped";
import { type ParamChanges, useUrlParams } from "../../screens/url-params";
import { Badge } from "../../ui/badge";
import { DatePicker } from "../../ui/date-picker";
import { VisitStateBadge, visitStateColors } from "./visit-state";

/**
 * The filter chips of the worklist (issues 12, 43), in the engine's order: what can still be done,
 * then Missed and Deviations open, which the default view (no chip) leaves out. Without a date range
 * the worklist holds only visits whose window opens within the horizon, and Upcoming says so.
 */
export const worklistChips = (ranged = false): { state: WorklistState; label: string }[] =>
  worklistStates.map((state) => ({
    state,
    label:
      state === "upcoming" && !ranged
        ? `Upcoming (next ${worklistHorizonDays} days)`
        : worklistStateLabel(state),
  }));

/**
 * A chip's count in its state's colour; "Deviations open" in that of a visit out of its window.
 * Unscheduled's colour is white: outlined, its count shows on the white chip as the others' do.
 */
const chipColor = (state: WorklistState) =>
  state === "unscheduled"
    ? `${visitStateColors.unscheduled} ring-1 ring-gray-400 ring-inset`
    : visitStateColors[state === "deviations-open" ? "out-of-window" : state];

/** A date range's ends from the URL: only real days count. */
export const rangeDay = (value: string | null) => (value && isValidIsoDate(value) ? value : undefined);

/** What a row's state allows: a visit done, or done out of its window, or not applicable, is recorded. */
export const recordable = (state: VisitState) =>
  state !== "out-of-window" && state !== "done" && state !== "not-applicable";

/** A booking's day and hour as the worklist shows them: "2 Apr 2026, 10:30". */
export const bookedText = (row: { visitDate: string | null; visitTime: string | null }) =>
  row.visitDate ? [shortDate(row.visitDate), row.visitTime].filter(Boolean).join(", ") : "";

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
export function recordVisitRoute(
  row: Pick<WorklistRow, "patientId" | "studyId" | "visitId">,
  returnTo: string,
): string {
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
  ranged,
}: {
  counts: Partial<Record<WorklistState, number>> | undefined;
  chosen: WorklistState[];
  onToggle: (state: WorklistState) => void;
  ranged: boolean;
}) {
  return (
    <fieldset className="flex flex-wrap gap-2">
      <legend className="sr-only">Show visits that are</legend>
      {worklistChips(ranged).map(({ state, label }) => {
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

/** The day range the worklist shows, from the URL; none: the default, the next 14 days. */
type Range = { from?: string; to?: string };

/**
 * A date range beside the default 14 days ahead (issue 46): From and To, kept in the URL, and a way
 * back to the default. A day is sent once it is a real day; emptied, it leaves the URL.
 */
function DateRange({ range, onChange }: { range: Range; onChange: (changes: ParamChanges) => void }) {
  const [from, setFrom] = useState(range.from ?? "");
  const [to, setTo] = useState(range.to ?? "");
  // Follow the URL when it changes from outside (back, the default's button).
  useEffect(() => setFrom(range.from ?? ""), [range.from]);
  useEffect(() => setTo(range.to ?? ""), [range.to]);
  const change = (param: "from" | "to", set: (value: string) => void) => (value: string) => {
    set(value);
    if (value === "" || isValidIsoDate(value)) onChange({ [param]: value || null });
  };
  return (
    <fieldset className="flex flex-wrap items-end gap-2">
      <legend className="sr-only">Visits between</legend>
      {(["from", "to"] as const).map((param) => (
        <div key={param} className="flex flex-col gap-1">
          <label htmlFor={`worklist-${param}`} className="text-sm font-medium text-gray-800">
            {param === "from" ? "From" : "To"}
          </label>
          <DatePicker
            id={`worklist-${param}`}
            label={param === "from" ? "From" : "To"}
            className="w-40"
            value={param === "from" ? from : to}
            onChange={change(param, param === "from" ? setFrom : setTo)}
          />
        </div>
      ))}
      {(range.from || range.to) && (
        <button
          type="button"
          onClick={() => onChange({ from: null, to: null })}
          className="rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          Next {worklistHorizonDays} days
        </button>
      )}
    </fieldset>
  );
}

/** The patient as the worklist names them: barcode over name, and Inactive when they are not active. */
function PatientCell({ row }: { row: WorklistRow }) {
  return (
    <span className="flex flex-col items-start">
      <span className="text-xs text-gray-600 tabular-nums">{row.barcode}</span>
      <span className="font-medium">{row.patientName}</span>
      {!isActiveStatus(row.patientStatus) && <Badge color="red">Inactive</Badge>}
    </span>
  );
}

/**
 * A row on a phone (issue 46, point 9): one card with the patient, the visit, its window and its state;
 * the other columns are left out there, so nothing that matters needs a sideways scroll.
 */
function RowCard({ row }: { row: WorklistRow }) {
  return (
    <span data-card="worklist-row" className="flex flex-col items-start gap-1 sm:hidden">
      <PatientCell row={row} />
      <span className="text-sm">
        <span className="font-medium">{row.visitName}</span>
        {row.screenNr && <span className="text-gray-600"> · {row.screenNr}</span>}
      </span>
      <span className="text-xs text-gray-700">
        <WindowCell text={windowText(row)} />
      </span>
      <StateCell row={row} />
    </span>
  );
}

/** Columns a phone leaves out: the row's card shows what matters of them. */
const wide = "max-sm:hidden";

const listOf = (
  site: SiteOption,
  chosen: WorklistState[],
  onToggle: (state: WorklistState) => void,
  range: Range,
  onRange: (changes: ParamChanges) => void,
  returnTo: string,
): ListDescription<WorklistRow> => ({
  resource: "worklist",
  title: "Worklist",
  rowId: "rowId",
  // Counts ignore the state filter, so the chips always show what each one would list.
  query: {
    siteId: site.id,
    state: chosen.length ? chosen.join(",") : undefined,
    from: range.from,
    to: range.to,
  },
  searchParam: "search",
  options: { add: false, edit: false, view: false, remove: false },
  toolbar: (answer) => (
    <div className="flex flex-col gap-3">
      <DateRange range={range} onChange={onRange} />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <StateChips
          counts={(answer as WorklistData | undefined)?.counts}
          chosen={chosen}
          onToggle={onToggle}
          ranged={Boolean(range.from || range.to)}
        />
        <QueriesChip siteId={site.id} />
      </div>
    </div>
  ),
  columns: [
    {
      key: "patientName",
      title: "Patient",
      // Kept on one line where there is room; at 1280 px beside the menu a long name takes two.
      className: "2xl:whitespace-nowrap",
      format: (row) => (
        <>
          <span className="max-sm:hidden">
            <PatientCell row={row} />
          </span>
          <RowCard row={row} />
        </>
      ),
    },
    { key: "screenNr", title: "Screen Nr", className: `whitespace-nowrap ${wide}` },
    { key: "studyName", title: "Study", className: `whitespace-nowrap ${wide}` },
    { key: "visitName", title: "Visit", className: wide },
    // Ordered by the window's end, or by the booked date; the headers flip the order.
    {
      key: "windowEnd",
      title: "Window",
      sortable: true,
      className: wide,
      format: (row) => <WindowCell text={windowText(row)} />,
    },
    {
      key: "expectedDate",
      title: "Expected",
      format: (row) => dateText(row.expectedDate),
      className: `whitespace-nowrap ${wide}`,
    },
    { key: "state", title: "State", className: wide, format: (row) => <StateCell row={row} /> },
    {
      key: "visitDate",
      title: "Booked for",
      sortable: true,
      className: wide,
      format: (row) =>
        (row.state === "booked" || row.bookingPassed) && row.visitDate ? (
          // The notes may wrap: kept on one line they widened the table past a 1280 px screen.
          <span className="flex flex-col">
            <span className="whitespace-nowrap">{bookedText(row)}</span>
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
  rowActions: (row) => (recordable(row.state) ? <RecordVisitLink row={row} returnTo={returnTo} /> : null),
});

/** Record visit of a row (the worklist's, a patient's schedule's): a new visit of its patient and visit. */
export function RecordVisitLink({
  row,
  returnTo,
}: {
  row: Pick<WorklistRow, "patientId" | "studyId" | "visitId" | "visitName" | "patientName">;
  returnTo: string;
}) {
  return (
    <Link
      to={recordVisitRoute(row, returnTo)}
      aria-label={`Record visit ${row.visitName} of ${row.patientName}`}
      className="rounded-md border border-gray-300 px-2 py-1 text-xs font-medium whitespace-nowrap text-blue-800 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600"
    >
      Record visit
    </Link>
  );
}
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
 * window or by the booked date, filtered by state chips and a date range (kept in the URL with search
 * and page), each with Record visit; on a phone each row is a card.
 */
export function WorklistScreen() {
  const { site } = useActiveSite();
  const [params, updateParams] = useUrlParams();
  const location = useLocation();
  const stateParam = params.get("state");
  const from = rangeDay(params.get("from"));
  const to = rangeDay(params.get("to"));
  const returnTo = `${location.pathname}${location.search}`;
  const description = useMemo(() => {
    if (!site) return null;
    const chosen = chosenStates(stateParam);
    const toggle = (state: WorklistState) => {
      const states = chosen.includes(state) ? chosen.filter((s) => s !== state) : [...chosen, state];
      updateParams({ state: states.join(",") }, { resetPage: true });
    };
    const onRange = (changes: ParamChanges) => updateParams(changes, { resetPage: true });
    return listOf(site, chosen, toggle, { from, to }, onRange, returnTo);
  }, [site, stateParam, from, to, updateParams, returnTo]);
  return description ? <ListScreen description={description} /> : <NoSiteChosen />;
}
