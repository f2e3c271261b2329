import { useMutation, useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  type CompactVisitSummary,
  cellWindow,
  lookupPageSizes,
  optionLabel,
  type SdvStatus,
  type Study,
  sdvStatuses,
  shortDate,
  type VisitState,
  type VisitSummaryCell,
  type VisitSummaryProfile,
  type VisitSummaryRow,
  type VisitSummaryVisit,
  visitDayText,
  visitStateLabel,
  visitSummaryAvailable,
  visitSummaryDayZero,
  visitSummaryDecoder,
  visitTypes,
  windowText,
} from "@trialdesk/domain";
import { Check, Circle, Download, RotateCcw } from "lucide-react";
import { memo, useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { useNavigate, useParams } from "react-router";
import { ApiError, api } from "../../api/client";
import { queryKeys, useLookupRows } from "../../api/queries";
import { useSession } from "../../app/session";
import { useActiveSite } from "../../app/site";
import { toast } from "../../app/toast";
import { saveFile } from "../../screens/ListScreen";
import { NoSiteChosen } from "../../screens/site-scoped";
import { useUrlParams } from "../../screens/url-params";
import { Button } from "../../ui/button";
import { Checkbox } from "../../ui/checkbox";
import { Field } from "../../ui/field";
import { SearchableSelect } from "../../ui/select";
import { Spinner } from "../../ui/spinner";
import { visitStateColors } from "../worklist/visit-state";

/** Every row has this height, so the virtualiser can place 2,000 rows without measuring them. */
const rowHeight = 36;
type FixedColumn = { title: string; width: number; left: number | "auto" };
/** The sticky columns (Nr., Screen Nr, Name): widths and their left offsets while scrolling sideways. */
const wideColumns: FixedColumn[] = [
  { title: "Nr.", width: 56, left: 0 },
  { title: "Screen Nr", width: 112, left: 56 },
  { title: "Name", width: 208, left: 168 },
];
/**
 * On a phone (below 640 px) the three would fill the screen (issue 15, bug 2): only Name stays put,
 * narrower; Nr. and Screen Nr scroll away with the visit columns.
 */
const narrowColumns: FixedColumn[] = [
  { title: "Nr.", width: 40, left: "auto" },
  { title: "Screen Nr", width: 88, left: "auto" },
  { title: "Name", width: 150, left: 0 },
];
const narrowQuery = "(max-width: 639px)";

/** Whether the screen is phone-narrow, following resizes; wide where matchMedia is missing. */
function useNarrow(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const media = window.matchMedia?.(narrowQuery);
      media?.addEventListener?.("change", listener);
      return () => media?.removeEventListener?.("change", listener);
    },
    () => window.matchMedia?.(narrowQuery).matches ?? false,
  );
}
const visitColumnWidth = 152;

/** A visit column's second header line, as the visit screens write types: "20 Screening". */
export const visitTypeText = (visit: VisitSummaryVisit) =>
  `${visit.visitType} ${optionLabel(visitTypes, visit.visitType as (typeof visitTypes)[number]["value"])}`;

const patientName = (profile: VisitSummaryProfile) => `${profile.lastName} ${profile.firstName}`;
/** A monitor never reads names (issue 44): their rows name the patient by barcode. */
const patientBarcode = (profile: VisitSummaryProfile) => profile.barcode;

const cell = "h-9 border-b border-gray-100 px-3 whitespace-nowrap";
const stickyCell = `${cell} sticky z-[1] bg-white`;
const headerCell = "sticky top-0 z-[2] border-b border-gray-200 bg-gray-100 px-3 py-2 text-xs text-gray-700";

/** The legend of the cell colours (issues 12, 43): what each colour of the grid means. */
export const legend: { state: VisitState; text: string }[] = (
  ["done", "out-of-window", "booked", "due", "overdue", "missed", "upcoming", "not-applicable"] as const
).map((state) => ({
  state,
  text: state === "upcoming" ? "Upcoming (expected date shown)" : visitStateLabel(state),
}));

/** The source-verification states a cell is marked with (issue 44), in the order the legend lists them. */
export const sdvMarked = ["PENDING", "VERIFIED", "REOPENED"] as const satisfies readonly SdvStatus[];
type SdvMarked = (typeof sdvMarked)[number];
const sdvMarks: Record<SdvMarked, { icon: typeof Check; color: string }> = {
  PENDING: { icon: Circle, color: "text-amber-800" },
  VERIFIED: { icon: Check, color: "text-green-800" },
  REOPENED: { icon: RotateCcw, color: "text-red-800" },
};
/** "Source verification: Verified": a mark's accessible name and hover text. */
export const sdvMarkText = (status: SdvStatus) => `Source verification: ${optionLabel(sdvStatuses, status)}`;

/** A cell's source-verification mark: a small icon in a white ring, named for screen readers. */
function SdvMark({ status, named = true }: { status: SdvStatus; named?: boolean }) {
  const mark = sdvMarks[status as SdvMarked];
  if (!mark) return null;
  const Icon = mark.icon;
  const shape = `inline-flex size-4 items-center justify-center rounded-full bg-white align-[-2px] ring-1 ring-current ${mark.color}`;
  return named ? (
    <span
      role="img"
      aria-label={sdvMarkText(status)}
      title={sdvMarkText(status)}
      className={`ml-1.5 ${shape}`}
    >
      <Icon aria-hidden="true" className="size-3" strokeWidth={3} />
    </span>
  ) : (
    // In the legend, its text says what it means.
    <span aria-hidden="true" className={`mr-1 ${shape}`}>
      <Icon className="size-3" strokeWidth={3} />
    </span>
  );
}

/** The marks of the answer (CompactVisitSummary.sdv) by patient, then by visit. */
type SdvByPatient = Map<string, Map<number, SdvStatus>>;
const noMarks: SdvByPatient = new Map();
function useSdvMarks(summary: CompactVisitSummary | undefined): SdvByPatient {
  return useMemo(() => {
    if (!summary?.sdv?.length) return noMarks;
    const marks: SdvByPatient = new Map();
    for (const [patientUuid, visitId, status] of summary.sdv) {
      let visits = marks.get(patientUuid);
      if (!visits) {
        visits = new Map();
        marks.set(patientUuid, visits);
      }
      visits.set(visitId, status);
    }
    return marks;
  }, [summary]);
}

/** A visit column's third header line: its day and window ("Day 14 ±2"), empty off the plan. */
export const visitDayLine = (visit: VisitSummaryVisit) => visitDayText(visit);

/** A visit missed or completed out of its window: the engine has recorded a protocol deviation for it. */
export const hasDeviation = (state: VisitState) => state === "missed" || state === "out-of-window";
export const deviationOnFile = "Protocol deviation on file";

/**
 * A cell's hover text: its state and, when planned, its window; a deviation on file, and its source
 * verification.
 */
const cellTitle = (value: VisitSummaryCell, column: VisitSummaryVisit, sdv?: SdvStatus) => {
  const window = windowText(cellWindow(value, column));
  const state = `${visitStateLabel(value.state)}${value.bookedOutsideWindow ? " outside the window" : ""}`;
  return [
    state,
    window && `window ${window}`,
    hasDeviation(value.state) && deviationOnFile,
    sdv && sdvMarkText(sdv),
  ]
    .filter(Boolean)
    .join(" · ");
};

/** The profile has a visit overdue today (the "Only patients with overdue visits" toggle). */
export const hasOverdue = (profile: VisitSummaryProfile) => profile.visits.some((v) => v.state === "overdue");

/**
 * The per-study visit summary (spec §2.5 Patient visit summary, §7, §8): Nr., Screen Nr and Name stay
 * put while the visit columns scroll sideways; each cell shows the patient's visit date or the word
 * "available", coloured by the visit's state (issue 12). The rows are the active site's patients; a
 * study picker opens any study's summary. Only the rows in view are rendered, so a study with 2,000
 * patients stays fast.
 */
export function VisitSummaryScreen() {
  const { site } = useActiveSite();
  const { user } = useSession();
  // A monitor has no site (issue 44): the server answers the sites of their assignment to the study.
  if (user?.kind === "monitor") return <SiteSummary siteId={undefined} monitor />;
  return site ? <SiteSummary siteId={site.id} monitor={false} /> : <NoSiteChosen />;
}

function SiteSummary({ siteId, monitor }: { siteId: number | undefined; monitor: boolean }) {
  const { studyUuid = "" } = useParams();
  const navigate = useNavigate();
  const [params, updateParams] = useUrlParams();
  const onlyOverdue = params.get("overdue") === "true";
  const study = useQuery({
    queryKey: queryKeys.detail("studies", studyUuid),
    queryFn: () => api.get<Study>(`studies/${studyUuid}`),
    enabled: Boolean(studyUuid),
  });
  const summary = useQuery({
    queryKey: queryKeys.visitSummary(studyUuid, siteId),
    queryFn: () =>
      api.get<CompactVisitSummary>(`patient-visit-summary/${studyUuid}`, {
        siteId,
        compact: true,
        dayZero: visitSummaryDayZero,
      }),
    enabled: Boolean(studyUuid),
  });
  // Spec §8: a failed summary fetch is logged and gives no message to the user.
  useEffect(() => {
    if (summary.error) console.error("Failed to load the visit summary", summary.error);
  }, [summary.error]);
  useEffect(() => {
    if (study.error) console.error("Failed to load the study of the visit summary", study.error);
  }, [study.error]);
  const notFound = summary.error instanceof ApiError && summary.error.status === 404;

  const columns = summary.data?.studyVisits ?? [];
  const all = summary.data?.rows ?? noRows;
  const profileOf = useProfiles(summary.data);
  const sdv = useSdvMarks(summary.data);
  const rows = useMemo(
    () => (onlyOverdue ? all.filter((row) => hasOverdue(profileOf(row))) : all),
    [all, onlyOverdue, profileOf],
  );
  const title = study.data ? `Visit summary — ${study.data.workingName}` : "Visit summary";

  const setOnlyOverdue = (on: boolean) => updateParams({ overdue: on ? "true" : null }, { replace: true });

  // Export CSV (issue 46, point 10): the grid as the server writes it for a spreadsheet, of the same
  // site and filter; fetched with the session's token and handed to the browser as a file.
  const exporting = useMutation({
    mutationFn: () =>
      api.download(`patient-visit-summary/${studyUuid}/export`, {
        siteId,
        overdue: onlyOverdue ? true : undefined,
      }),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename ?? "visit-summary.csv"),
    onError: (error) => toast({ title: `Can not export: ${error.message}`, variant: "destructive" }),
  });

  return (
    <section className="flex flex-col gap-3">
      <h1 className="text-xl font-semibold text-gray-900">{title}</h1>
      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <StudyPicker
          value={studyUuid}
          current={study.data}
          // The list of studies is asked for once the grid has its answer: not both at once (issue 14).
          ready={!summary.isPending || !studyUuid}
          onChange={(uuid) => navigate({ pathname: `/visit-summary/${uuid}`, search: params.toString() })}
        />
        <Checkbox
          id="only-overdue"
          label="Only patients with overdue visits"
          checked={onlyOverdue}
          onCheckedChange={setOnlyOverdue}
        />
        {summary.isSuccess && (
          <Button
            variant="secondary"
            onClick={() => exporting.mutate()}
            disabled={exporting.isPending}
            aria-busy={exporting.isPending}
          >
            {exporting.isPending ? <Spinner /> : <Download aria-hidden="true" className="size-4" />}
            Export CSV
          </Button>
        )}
      </div>
      <Legend withSdv={sdv.size > 0} />
      {summary.isPending && studyUuid ? (
        <Spinner label="Loading..." />
      ) : (
        <SummaryGrid columns={columns} rows={rows} profileOf={profileOf} sdv={sdv} monitor={monitor} />
      )}
      {notFound && <p className="text-sm text-gray-700">Study not found</p>}
      {summary.isSuccess && all.length === 0 && (
        <p className="text-sm text-gray-600">No patients in this study</p>
      )}
      {summary.isSuccess && all.length > 0 && rows.length === 0 && (
        <p className="text-sm text-gray-600">No patient has an overdue visit</p>
      )}
    </section>
  );
}

const noRows: VisitSummaryRow[] = [];

/**
 * The compact answer's rows read as profiles when first needed (the rows in view, or all of them for
 * the overdue filter) and kept: decoding 80,000 cells up front would delay the first rows.
 */
function useProfiles(summary: CompactVisitSummary | undefined) {
  return useMemo(() => {
    // Without an answer there are no rows to read.
    const decode = visitSummaryDecoder(
      summary ?? { studyVisits: [], asOf: "1970-01-01", dayZero: "1970-01-01" },
    );
    const decoded = new WeakMap<VisitSummaryRow, VisitSummaryProfile>();
    return (row: VisitSummaryRow) => {
      let profile = decoded.get(row);
      if (!profile) {
        profile = decode(row);
        decoded.set(row, profile);
      }
      return profile;
    };
  }, [summary]);
}

/** Every study the user may see, by working name; choosing one opens its summary. */
function StudyPicker({
  value,
  current,
  ready,
  onChange,
}: {
  value: string;
  /** The open study, named even when it is not among the first 100. */
  current?: Study;
  /** Whether to ask for the studies now. */
  ready: boolean;
  onChange: (uuid: string) => void;
}) {
  const studies = useLookupRows<Study>(
    {
      resource: "studies",
      pageSize: lookupPageSizes.studies,
      query: { order: "workingName", direction: "asc" },
    },
    { enabled: ready },
  );
  const options = (studies.data ?? []).map((s) => ({ value: s.uuid, label: s.workingName }));
  return (
    <Field id="summary-study" label="Study" className="w-72">
      {(control) => (
        <SearchableSelect
          {...control}
          value={value}
          options={options}
          loading={studies.isPending}
          onChange={onChange}
          selectedOption={current ? { value: current.uuid, label: current.workingName } : undefined}
          placeholder="Type to select a study ..."
          emptyText="No item found"
        />
      )}
    </Field>
  );
}

/**
 * What the cell colours mean, in the cells' own colours; and, when the grid has any, what its
 * source-verification marks mean (issue 44), in a list of their own beside them.
 */
function Legend({ withSdv }: { withSdv: boolean }) {
  return (
    <div className="flex flex-wrap gap-2 text-xs">
      <ul aria-label="Legend" className="flex flex-wrap gap-2">
        {legend.map(({ state, text }) => (
          <li
            key={state}
            className={`rounded border border-black/10 px-2 py-0.5 font-medium ${visitStateColors[state]}`}
          >
            {text}
          </li>
        ))}
      </ul>
      {withSdv && (
        <ul aria-label="Source verification marks" className="flex flex-wrap gap-2">
          {sdvMarked.map((status) => (
            <li
              key={status}
              className="inline-flex items-center rounded border border-black/10 bg-white px-2 py-0.5 font-medium text-gray-800"
            >
              <SdvMark status={status} named={false} />
              {sdvMarkText(status)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SummaryGrid({
  columns,
  rows,
  profileOf,
  sdv,
  monitor,
}: {
  columns: VisitSummaryVisit[];
  rows: VisitSummaryRow[];
  profileOf: (row: VisitSummaryRow) => VisitSummaryProfile;
  sdv: SdvByPatient;
  /** A monitor's grid names patients by barcode (issue 44). */
  monitor: boolean;
}) {
  const fixed = useNarrow() ? narrowColumns : wideColumns;
  const sticky = useMemo(
    () => (monitor ? fixed.map((c) => (c.title === "Name" ? { ...c, title: "Barcode" } : c)) : fixed),
    [fixed, monitor],
  );
  const stickyWidth = sticky.reduce((sum, c) => sum + c.width, 0);
  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    // Rows drawn beyond the view each side: a wheel turn moves ~3. With 12 (issue 14), each frame laid
    // out and painted ~40% more rows: scrolled in Chromium without a GPU, 20–25 of ~123 frames took
    // over 1/30 s, 13–16 of ~140 with 5. Rendering without flushSync, or one column fewer, did no better.
    overscan: 5,
  });
  // Only the visit columns in view (and two either side) get cells; the others are one spacer each side.
  const columnVirtualizer = useVirtualizer({
    horizontal: true,
    count: columns.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => visitColumnWidth,
    paddingStart: stickyWidth,
    overscan: 2,
  });
  const items = virtualizer.getVirtualItems();
  const before = items.length > 0 ? items[0].start : 0;
  const after = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const visible = columnVirtualizer.getVirtualItems();
  const firstColumn = visible[0]?.index ?? 0;
  const lastColumn = visible.at(-1)?.index ?? -1;
  const width = stickyWidth + columns.length * visitColumnWidth;
  const span = sticky.length + columns.length;

  return (
    // The scroll area takes the keyboard (arrows, Page Up/Down) once focused.
    <section
      ref={scrollRef}
      aria-label="Visit summary grid"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className="max-h-[calc(100vh-190px)] overflow-auto rounded-md border border-gray-200 bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
    >
      <table
        aria-label="Visit summary"
        aria-rowcount={rows.length + 1}
        aria-colcount={span}
        className="table-fixed border-separate border-spacing-0 text-left text-sm"
        style={{ width }}
      >
        <colgroup>
          {sticky.map((c) => (
            <col key={c.title} style={{ width: c.width }} />
          ))}
          {columns.map((visit) => (
            <col key={visit.id} style={{ width: visitColumnWidth }} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {sticky.map((c, index) => (
              <th
                key={c.title}
                scope="col"
                className={`${headerCell} z-[3] font-semibold`}
                style={stickyStyle(sticky, index)}
              >
                {c.title}
              </th>
            ))}
            {columns.map((visit) => (
              <th key={visit.id} scope="col" className={headerCell}>
                <span className="block truncate font-semibold" title={visit.visitName}>
                  {visit.visitName}
                </span>
                <span className="block truncate font-normal text-gray-700">{visitTypeText(visit)}</span>
                <span className="block truncate font-normal text-gray-700">
                  {visitDayLine(visit) || "\u00a0"}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row is not focusable; it only keeps the rows in view in place
            <tr aria-hidden="true">
              <td colSpan={span} style={{ height: before, padding: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const profile = profileOf(rows[item.index]);
            return (
              <SummaryRow
                key={rows[item.index][1]}
                index={item.index}
                profile={profile}
                columns={columns}
                sticky={sticky}
                first={firstColumn}
                last={lastColumn}
                sdv={sdv.get(profile.patientUuid)}
                nameOf={monitor ? patientBarcode : patientName}
              />
            );
          })}
          {after > 0 && (
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row is not focusable; it only keeps the rows in view in place
            <tr aria-hidden="true">
              <td colSpan={span} style={{ height: after, padding: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

const stickyStyle = (sticky: FixedColumn[], index: number) => ({
  left: sticky[index].left,
  width: sticky[index].width,
});

/**
 * One patient's row: the sticky Nr., Screen Nr and Name, then the cells of the visit columns first to
 * last, the columns outside them each side as one empty spacer. Memoised, so scrolling draws only the
 * rows and columns that come into view.
 */
const SummaryRow = memo(function SummaryRow({
  index,
  profile,
  columns,
  sticky,
  first,
  last,
  sdv,
  nameOf,
}: {
  index: number;
  profile: VisitSummaryProfile;
  columns: VisitSummaryVisit[];
  sticky: FixedColumn[];
  first: number;
  last: number;
  /** The patient's visits' source-verification states, by visit id (issue 44). */
  sdv: Map<number, SdvStatus> | undefined;
  /** How the row names its patient: by name, or by barcode for a monitor. */
  nameOf: (profile: VisitSummaryProfile) => string;
}) {
  const cells = useMemo(() => new Map(profile.visits.map((visit) => [visit.visitId, visit])), [profile]);
  return (
    <tr aria-rowindex={index + 2}>
      <td aria-colindex={1} className={`${stickyCell} text-gray-600`} style={stickyStyle(sticky, 0)}>
        {index + 1}
      </td>
      <td aria-colindex={2} className={`${stickyCell} truncate`} style={stickyStyle(sticky, 1)}>
        {profile.screenNr ?? ""}
      </td>
      <th
        aria-colindex={3}
        scope="row"
        className={`${stickyCell} truncate border-r border-r-gray-200 font-medium text-gray-900`}
        style={stickyStyle(sticky, 2)}
      >
        {nameOf(profile)}
      </th>
      {first > 0 && <td aria-hidden="true" colSpan={first} className="p-0" />}
      {columns.slice(first, last + 1).map((visit, offset) => (
        <SummaryCell
          key={visit.id}
          column={visit}
          colIndex={sticky.length + first + offset + 1}
          value={cells.get(visit.id)}
          sdv={sdv?.get(visit.id)}
        />
      ))}
      {last < columns.length - 1 && (
        <td aria-hidden="true" colSpan={columns.length - 1 - last} className="p-0" />
      )}
    </tr>
  );
});

/**
 * One cell: the visit date, else "available" (spec), on its state's colour; an upcoming visit also
 * shows its expected date. The state is written out for screen readers, colour being only a hint.
 * Memoised: scrolling sideways changes every row's columns in view, and redrawing each row's cells
 * then held frames past 1/30 s (issue 14).
 */
const SummaryCell = memo(function SummaryCell({
  value,
  column,
  colIndex,
  sdv,
}: {
  value: VisitSummaryCell | undefined;
  column: VisitSummaryVisit;
  /** The cell's place among all columns, as some columns are left out while out of view. */
  colIndex: number;
  /** The visit's source verification, when it has something to verify or was verified (issue 44). */
  sdv?: SdvStatus;
}) {
  if (!value)
    return (
      <td aria-colindex={colIndex} className={`${cell} text-gray-700 italic`}>
        {visitSummaryAvailable}
        {sdv && <SdvMark status={sdv} />}
      </td>
    );
  return (
    <td
      aria-colindex={colIndex}
      title={cellTitle(value, column, sdv)}
      className={`${cell} ${visitStateColors[value.state]}`}
    >
      {value.visitDate ? (
        <span className="tabular-nums">{value.visitDate}</span>
      ) : (
        <span className="italic">{visitSummaryAvailable}</span>
      )}
      {value.state === "upcoming" && value.expectedDate && (
        <span className="ml-1.5 text-xs tabular-nums">{shortDate(value.expectedDate).slice(0, -5)}</span>
      )}
      <span className="sr-only"> {visitStateLabel(value.state)}</span>
      {hasDeviation(value.state) && (
        <>
          <span className="sr-only">, {deviationOnFile.toLowerCase()}</span>
          <span
            aria-hidden="true"
            className="ml-1.5 inline-flex size-4 items-center justify-center rounded-full bg-white text-xs font-bold ring-1 ring-current"
          >
            !
          </span>
        </>
      )}
      {sdv && <SdvMark status={sdv} />}
    </td>
  );
});
