import {
  calculationModeLabels,
  type StudyplanListRow,
  type StudyplanStatus,
  studyplanStatus,
} from "@trialdesk/domain";
import { useParams } from "react-router";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { useNewRecordUuid } from "../../screens/FormScreen";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { useCanWrite } from "../../screens/navigation";
import { Badge, type BadgeColor } from "../../ui/badge";
import { type PlanRecord, StudyplanEditor } from "./studyplan-editor";

const statusColors: Record<StudyplanStatus, BadgeColor> = {
  Missing: "red",
  Incomplete: "amber",
  Complete: "green",
  Unknown: "gray",
};

/** Where a study's row leads: its plan's editor, or a new plan for the study (spec §2.5). */
const planRoute = (row: StudyplanListRow) =>
  row.studyplanUuid ? `/studyplans/${row.studyplanUuid}/edit` : `/studies/${row.studyUuid}/studyplans/create`;
/**
 * Where it leads someone who may not write plans (decision 226): the plan's detail; a study without a
 * plan leads nowhere (no route: the row is not clickable).
 */
const viewRoute = (row: StudyplanListRow) => (row.studyplanUuid ? `/studyplans/${row.studyplanUuid}` : "");

/** The studyplans list (spec §2.5): one row per study, its visit counts and the plan's status. */
const list: ListDescription<StudyplanListRow> = {
  resource: "studyplans",
  rowId: "studyUuid",
  columns: [
    { key: "studyId", title: "Study Id", sortable: true, className: "w-24" },
    { key: "studyName", title: "Study", sortable: true },
    { key: "protocolNr", title: "Protocol number", sortable: true },
    {
      key: "visits",
      title: "Visits",
      format: (row) => (
        // The status compares the plan's mandatory visits with the study's: both numbers are shown
        // (issue 15, bug 9).
        <span className="flex flex-col text-xs text-gray-700">
          <span>Studyplan: {row.studyplanVisitCount} visits</span>
          <span>
            Mandatory: {row.mandatoryStudyplanVisitCount ?? 0} of {row.mandatoryVisitCount ?? 0} planned
          </span>
        </span>
      ),
    },
    {
      key: "status",
      title: "Status",
      className: "w-32",
      format: (row) => {
        const status = studyplanStatus(row);
        return <Badge color={statusColors[status]}>{status}</Badge>;
      },
    },
  ],
  options: { add: false },
  rowClick: planRoute,
  editRoute: planRoute,
  viewRoute: (row) => viewRoute(row) || null,
  describe: (row) => `the studyplan of ${row.studyName}`,
};

/** The detail rows (spec §2.5): the plan's study, then one block per schedule entry. */
const detail: DetailDescription<PlanRecord> = {
  resource: "studyplans",
  param: "studyplanUuid",
  rows: [
    { label: "StudyId", value: (plan) => show(plan.studyId) },
    { label: "Study", value: (plan) => show(plan.studyName) },
    {
      label: "Calculation",
      value: (plan) => calculationModeLabels[plan.calculationMode ?? "default"],
    },
    {
      label: "Schedule",
      value: (plan) =>
        plan.schedule.length === 0 ? (
          "—"
        ) : (
          <ol className="flex flex-col gap-2">
            {plan.schedule.map((entry) => (
              <li key={entry.id ?? entry.sequence} className="rounded-md border border-gray-200 px-3 py-2">
                <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-0.5">
                  {(
                    [
                      ["Id", entry.id],
                      ["StudyId", plan.studyId],
                      ["VisitId", entry.fromVisitId],
                      ["Sequence", entry.sequence],
                      ["DaysFromStart", entry.daysFromStart],
                      ["AllowedDaysBefore", entry.allowedDaysBefore],
                      ["AllowedDaysAfter", entry.allowedDaysAfter],
                    ] as const
                  ).map(([label, value]) => (
                    <div key={label} className="contents">
                      <dt className="text-gray-600">{label}</dt>
                      <dd>{show(value)}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ol>
        ),
    },
  ],
};

/** The list; a row opens the editor for those who may write plans, else the plan's detail. */
export function List() {
  const canWrite = useCanWrite("studyplans");
  return <ListScreen description={canWrite ? list : { ...list, rowClick: viewRoute }} />;
}
export const Detail = () => <DetailScreen description={detail} />;

/**
 * /studies/:studyUuid/studyplans/create and /studyplans/:studyplanUuid/edit, keyed by the plan's uuid
 * (useNewRecordUuid): a plan just created keeps its editor on its edit route; any other route starts
 * afresh.
 */
export function Editor() {
  const { studyUuid, studyplanUuid } = useParams();
  const newPlan = useNewRecordUuid("studyplans", studyplanUuid ?? `new-${studyUuid}`);
  return (
    <StudyplanEditor
      key={studyplanUuid ?? newPlan}
      studyUuid={studyplanUuid ? undefined : studyUuid}
      studyplanUuid={studyplanUuid}
      newPlan={newPlan}
    />
  );
}
