import { useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  optionLabel,
  type Study,
  type VisitSummary,
  type VisitSummaryProfile,
  type VisitSummaryVisit,
  visitSummaryAvailable,
  visitSummaryCell,
  visitTypes,
} from "@trialdesk/domain";
import { useEffect, useRef } from "react";
import { useParams } from "react-router";
import { api } from "../../api/client";
import { Spinner } from "../../ui/spinner";

/** Every row has this height, so the virtualiser can place 2,000 rows without measuring them. */
const rowHeight = 36;
/** The sticky columns (Nr., Screen Nr, Name): widths and their left offsets while scrolling sideways. */
const sticky = [
  { title: "Nr.", width: 56, left: 0 },
  { title: "Screen Nr", width: 112, left: 56 },
  { title: "Name", width: 208, left: 168 },
] as const;
const visitColumnWidth = 136;

/** A visit column's second header line, as the visit screens write types: "20 Screening". */
export const visitTypeText = (visit: VisitSummaryVisit) =>
  `${visit.visitType} ${optionLabel(visitTypes, visit.visitType as (typeof visitTypes)[number]["value"])}`;

const patientName = (profile: VisitSummaryProfile) => `${profile.lastName} ${profile.firstName}`;

const stickyStyle = (index: number) => ({ left: sticky[index].left, width: sticky[index].width });
const cell = "h-9 border-b border-gray-100 px-3 whitespace-nowrap";
const stickyCell = `${cell} sticky z-[1] bg-white`;
const headerCell = "sticky top-0 z-[2] border-b border-gray-200 bg-gray-100 px-3 py-2 text-xs text-gray-700";

/**
 * The per-study visit summary (spec §2.5 Patient visit summary, §7, §8): Nr., Screen Nr and Name stay
 * put while the visit columns scroll sideways; each cell shows the patient's visit date or the word
 * "available". Only the rows in view are rendered, so a study with 2,000 patients stays fast.
 */
export function VisitSummaryScreen() {
  const { studyUuid = "" } = useParams();
  const study = useQuery({
    queryKey: ["study", studyUuid],
    queryFn: () => api.get<Study>(`studies/${studyUuid}`),
    enabled: Boolean(studyUuid),
  });
  const summary = useQuery({
    queryKey: ["patient-visit-summary", studyUuid],
    queryFn: () => api.get<VisitSummary>(`patient-visit-summary/${studyUuid}`),
    enabled: Boolean(studyUuid),
  });
  // Spec §8: a failed summary fetch is logged and gives no message to the user.
  useEffect(() => {
    if (summary.error) console.error("Failed to load the visit summary", summary.error);
  }, [summary.error]);
  useEffect(() => {
    if (study.error) console.error("Failed to load the study of the visit summary", study.error);
  }, [study.error]);

  const columns = summary.data?.studyVisits ?? [];
  const profiles = summary.data?.patientStudyProfiles ?? [];
  const title = study.data ? `Visit summary — ${study.data.workingName}` : "Visit summary";

  return (
    <section className="flex flex-col gap-3">
      <h1 className="text-xl font-semibold text-gray-900">{title}</h1>
      {summary.isPending && studyUuid ? (
        <Spinner label="Loading..." />
      ) : (
        <SummaryGrid columns={columns} profiles={profiles} />
      )}
      {summary.isSuccess && profiles.length === 0 && (
        <p className="text-sm text-gray-600">No patients in this study</p>
      )}
    </section>
  );
}

function SummaryGrid({
  columns,
  profiles,
}: {
  columns: VisitSummaryVisit[];
  profiles: VisitSummaryProfile[];
}) {
  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: profiles.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const before = items.length > 0 ? items[0].start : 0;
  const after = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const width = sticky.reduce((sum, c) => sum + c.width, 0) + columns.length * visitColumnWidth;
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
        aria-rowcount={profiles.length + 1}
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
                style={stickyStyle(index)}
              >
                {c.title}
              </th>
            ))}
            {columns.map((visit) => (
              <th key={visit.id} scope="col" className={headerCell}>
                <span className="block truncate font-semibold" title={visit.visitName}>
                  {visit.visitName}
                </span>
                <span className="block truncate font-normal text-gray-600">{visitTypeText(visit)}</span>
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
            const profile = profiles[item.index];
            return (
              <tr key={profile.barcode} aria-rowindex={item.index + 2}>
                <td className={`${stickyCell} text-gray-600`} style={stickyStyle(0)}>
                  {item.index + 1}
                </td>
                <td className={`${stickyCell} truncate`} style={stickyStyle(1)}>
                  {profile.screenNr ?? ""}
                </td>
                <th
                  scope="row"
                  className={`${stickyCell} truncate border-r border-r-gray-200 font-medium text-gray-900`}
                  style={stickyStyle(2)}
                >
                  {patientName(profile)}
                </th>
                {columns.map((visit) => {
                  const value = visitSummaryCell(profile, visit.id);
                  return (
                    <td
                      key={visit.id}
                      className={`${cell} ${value === visitSummaryAvailable ? "text-gray-500 italic" : "text-gray-900 tabular-nums"}`}
                    >
                      {value}
                    </td>
                  );
                })}
              </tr>
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
