import { useQuery } from "@tanstack/react-query";
import {
  addDays,
  bookingPassedText,
  choosePatient,
  chooseStudy,
  chooseVisit,
  emptyPatientVisit,
  hasCompletedRecord,
  type ListData,
  lookupPageSizes,
  newUuid,
  notesMaxLength,
  optionLabel,
  outsidePlannedWindow,
  type Patient,
  type PatientVisit,
  type PatientVisitDetail,
  type PatientVisitInput,
  type PatientVisitListRow,
  patientOptionLabel,
  reopensVerification,
  type SdvStatus,
  type SiteOption,
  type StudyPatientLookupItem,
  shortDate,
  showsVisitResult,
  toIsoDate,
  type VisitOption,
  type VisitRecord,
  type VisitStatus,
  validatePatientVisit,
  visitDateErrors,
  visitDateMessages,
  visitResults,
  visitStatuses,
  windowText,
} from "@trialdesk/domain";
import { useEffect, useMemo, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queries";
import { useSession } from "../../app/session";
import { useActiveSite } from "../../app/site";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { type FieldSpec, FormField, fieldId, type Lookup } from "../../screens/FormFields";
import { type FormDescription, FormScreen, type SaveQuestion } from "../../screens/FormScreen";
import type { ListDescription, Row } from "../../screens/ListScreen";
import { NoSiteChosen, siteScopedList } from "../../screens/site-scoped";
import type { FormApi } from "../../screens/useFormState";
import { Badge, type BadgeColor } from "../../ui/badge";
import { Checkbox } from "../../ui/checkbox";
import { Field } from "../../ui/field";
import { Input } from "../../ui/input";
import { SearchableSelect } from "../../ui/select";
import { Spinner } from "../../ui/spinner";
import { TableArea, Td, Th } from "../../ui/table";
import { DeviationTable } from "../protocol-deviations/deviation-parts";
import { VisitStateBadge } from "../worklist/visit-state";
import { OpenQueries, SdvBadge, SdvState, VisitQueries, VisitVerification } from "./sdv-parts";

export type PatientVisitForm = Partial<PatientVisitInput> & {
  patientName?: string | null;
  studyName?: string | null;
  visitName?: string | null;
};

/** The placeholder of selects that need nothing chosen first (spec §2.5). */
const pleaseSelect = "Please select ...";

const statusColors: Record<VisitStatus, BadgeColor> = {
  BOOKED: "blue",
  ARRIVED: "amber",
  COMPLETED: "green",
  CANCELLED: "gray",
  NO_SHOW: "red",
};
/** Statuses and results read as the spec writes them (BOOKED, NO_SHOW …, PENDING, OK, FAILED). */
/** A stored status in words ("NO_SHOW" → "No show"). */
const statusLabel = (status: VisitStatus | null | undefined) => optionLabel(visitStatuses, status) || "—";

export const VisitStatusBadge = ({ status }: { status: VisitStatus | null | undefined }) =>
  status ? <Badge color={statusColors[status]}>{statusLabel(status)}</Badge> : null;

/** A list row with its source verification (issue 44). */
type PatientVisitRow = PatientVisitListRow & { sdvStatus?: SdvStatus | null };

const listOf = (site: SiteOption): ListDescription<PatientVisitRow> => ({
  resource: "patient-visits",
  // The active site's visits (spec §1: patient screens work in the chosen site).
  query: { siteId: site.id },
  rowId: "patientVisitUuid",
  routeId: "patientVisitUuid",
  columns: [
    { key: "patientVisitId", title: "Id", sortable: true, className: "w-16" },
    { key: "screenNumber", title: "Screen Nr", sortable: true },
    { key: "barcode", title: "Barcode" },
    { key: "patientName", title: "Patient", sortable: true },
    { key: "studyName", title: "Study", sortable: true },
    { key: "visitName", title: "Visit", sortable: true },
    { key: "visitDate", title: "Visit date", sortable: true, className: "text-center" },
    {
      key: "visitStatus",
      title: "Status",
      sortable: true,
      format: (row) => <VisitStatusBadge status={row.visitStatus} />,
    },
    // Source verification (issue 44), short: Pending, Verified, Reopened; a dash when not required.
    { key: "sdvStatus", title: "SDV", format: (row) => <SdvBadge status={row.sdvStatus} /> },
  ],
  describe: (row) => `${row.visitName} of ${row.patientName}`,
});

/**
 * Keeps a record new or existing as the reset rules leave it: data without a uuid is a new visit;
 * it keeps the form's client uuid while that is a new record too, else it gets a fresh one.
 */
export function withUuid(next: PatientVisitForm, current: PatientVisitForm): PatientVisitForm {
  if (next.uuid) return next;
  const isNew = typeof current.id !== "number";
  return { ...next, uuid: isNew && current.uuid ? current.uuid : newUuid("patient-visits") };
}

/** The patient selector's lookup (spec §7): the active site's patients, searched on the server. */
export const patientLookup = (site: SiteOption, onlyAssigned: boolean): Lookup => ({
  resource: "patients",
  pageSize: lookupPageSizes.patients,
  query: { forSelect: "true", siteId: site.id, onlyAssigned: onlyAssigned ? "true" : undefined },
  search: "search",
  option: (p: Row) => ({ value: p.id, label: patientOptionLabel(p) }),
  selected: (data: Row) =>
    data.patientId && data.patientName ? { value: data.patientId, label: data.patientName } : null,
});

/** The patient's studies from GET study-patients?pid= (spec §7), one option per study. */
export function useStudiesOf(patientId: number | null | undefined) {
  const query = { page: 1, pagesize: lookupPageSizes.studies, pid: patientId ?? undefined };
  return useQuery({
    queryKey: queryKeys.lookup("study-patients", query),
    queryFn: () => api.get<ListData<StudyPatientLookupItem>>("study-patients", query),
    enabled: Boolean(patientId),
    select: (data) => {
      // An active assignment wins over a closed one to the same study.
      const byStudy = new Map<number, StudyPatientLookupItem>();
      for (const item of data.items) {
        if (!byStudy.has(item.studyId) || item.active) byStudy.set(item.studyId, item);
      }
      return [...byStudy.values()].map((item) => ({
        value: item.studyId,
        label:
          `${item.projectInternalCode ?? ""} ${item.studyWorkingName ?? ""}${item.active ? "" : " (closed)"}`.trim(),
      }));
    },
  });
}

/** The Study select of a form that names a patient first: that patient's studies (spec §7). */
export function PatientStudyField({
  patientId,
  studyId,
  error,
  onChange,
}: {
  patientId: number | null | undefined;
  studyId: number | null | undefined;
  error?: string;
  onChange: (studyId: number | null) => void;
}) {
  const studies = useStudiesOf(patientId);
  return (
    <Field id={fieldId("studyId")} label="Study" required error={error}>
      {(control) => (
        <SearchableSelect
          {...control}
          options={studies.data ?? []}
          loading={Boolean(patientId) && studies.isPending}
          disabled={!patientId}
          value={studyId}
          onChange={(value) => onChange(value as number | null)}
          placeholder={patientId ? "Type to select a study ..." : "Select a patient first"}
          emptyText="No item found"
        />
      )}
    </Field>
  );
}

/**
 * The study's visits with the patient's data for each (GET patient-visit-detail, spec §7): the record
 * that counts, every record and the visit's deviations (issue 43).
 */
export function useVisitOptions(patientId: number | null | undefined, studyId: number | null | undefined) {
  return useQuery({
    queryKey: queryKeys.patientVisitDetail(patientId, studyId),
    queryFn: async () => {
      try {
        return await api.get<PatientVisitDetail>("patient-visit-detail", {
          patientId: patientId ?? undefined,
          studyId: studyId ?? undefined,
        });
      } catch (error) {
        // Spec §8: a failed detail fetch is logged and gives no message to the user.
        console.error("Failed to load the patient visit detail", error);
        throw error;
      }
    },
    enabled: Boolean(patientId && studyId),
    select: (data) => Object.values(data.visits),
  });
}

const recordedText = (visit: VisitOption) =>
  visit.patientVisitId ? [visit.visitDate, statusLabel(visit.visitStatus)].filter(Boolean).join(" · ") : "";

/** A select of the domain's coded choices (a visit's status, its result), shown by their labels. */
const codeSelect = (
  name: string,
  label: string,
  choices: readonly { value: string; label: string }[],
): FieldSpec => ({
  name,
  label,
  kind: "select",
  placeholder: pleaseSelect,
  options: choices.map(({ value, label }) => ({ value, label })),
});
const statusField = codeSelect("visitStatus", "Visit status", visitStatuses);
const resultField = codeSelect("visitResult", "Visit result", visitResults);
const dateField: FieldSpec = { name: "visitDate", label: "Visit date", kind: "date" };
const notesField: FieldSpec = {
  name: "notes",
  label: "Notes",
  kind: "textarea",
  maxLength: notesMaxLength,
  rows: 3,
  width: "full",
};

/**
 * Keeps what a time of day may hold and adds the colon after the hours: "0930" → "09:30". An hour of
 * one digit gets its zero when the person ends it ("9:" or "9." → "09:") or when the next digit cannot
 * follow it in an hour ("93" → "09:3"), so "9:30" and "930" are 09:30, not "93:0". "25" stays as typed,
 * for the check to refuse, rather than become another time.
 */
export function typedTime(text: string): string {
  const endedHour = /^\d\D/.test(text);
  let digits = text.replace(/\D/g, "");
  if (endedHour || /^[3-9]\d/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  if (digits.length === 2 && endedHour) return `${digits}:`;
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

/**
 * The chosen visit's planned window from the visit-windows engine (issue 12), and an amber,
 * non-blocking note when the visit date lies outside it.
 */
export function PlannedWindow({ visit, visitDate }: { visit?: VisitOption; visitDate?: string | null }) {
  if (!visit?.windowStart || !visit.windowEnd) return null;
  const window = { windowStart: visit.windowStart, windowEnd: visit.windowEnd };
  return (
    <div className="flex flex-col gap-1 text-sm md:col-span-2">
      <p className="text-gray-700">
        Planned window: {windowText(window)}
        {visit.expectedDate ? ` (expected ${shortDate(visit.expectedDate)})` : ""}
      </p>
      {outsidePlannedWindow(visitDate, visit) && (
        <p
          role="status"
          className="w-fit rounded-md border border-amber-300 bg-amber-50 px-2 py-1 font-medium text-amber-900"
        >
          Outside the planned window
        </p>
      )}
    </div>
  );
}

/**
 * What the chosen visit is now: its state ("Missed" …), and a booking whose day passed without an
 * outcome (issue 43).
 */
function VisitSituation({ visit }: { visit?: VisitOption }) {
  if (!visit?.state && !visit?.bookingPassed) return null;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm md:col-span-2">
      {visit.state && (
        <span className="flex items-center gap-1.5 text-gray-700">
          State: <VisitStateBadge state={visit.state} />
        </span>
      )}
      {visit.bookingPassed && (
        <p
          role="status"
          className="w-fit rounded-md border border-amber-300 bg-amber-50 px-2 py-1 font-medium text-amber-900"
        >
          {bookingPassedText}
        </p>
      )}
    </div>
  );
}

/**
 * What is on file for the chosen visit (issue 43): its earlier records, never overwritten (each opens
 * in its own editor), and its protocol deviations. The record open in the form is not among them.
 */
function VisitFile({ visit, openRecordId }: { visit?: VisitOption; openRecordId?: number | null }) {
  const records = (visit?.records ?? []).filter((record) => record.patientVisitId !== openRecordId);
  const deviations = visit?.deviations ?? [];
  if (records.length === 0 && deviations.length === 0) return null;
  return (
    <div className="flex flex-col gap-4 md:col-span-2">
      {records.length > 0 && <EarlierRecords records={records} />}
      {deviations.length > 0 && <DeviationTable label="Deviations of this visit" deviations={deviations} />}
    </div>
  );
}

function EarlierRecords({ records }: { records: VisitRecord[] }) {
  return (
    <TableArea label="Earlier records of this visit">
      <thead>
        <tr>
          <Th>Date</Th>
          <Th>Status</Th>
          <Th>Notes</Th>
          <Th className="w-px">
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {records.map((record) => (
          <tr key={record.patientVisitUuid}>
            <Td className="whitespace-nowrap">
              {[record.visitDate ?? "No date", record.visitTime].filter(Boolean).join(" ")}
            </Td>
            <Td>
              <VisitStatusBadge status={record.visitStatus} />
            </Td>
            <Td>{record.notes ?? ""}</Td>
            <Td>
              <Link
                to={`/patient-visits/${record.patientVisitUuid}/edit`}
                aria-label={`Open the record of ${record.visitDate ?? "no date"}`}
                className="text-xs font-medium text-blue-800 underline-offset-2 hover:underline"
              >
                Open
              </Link>
            </Td>
          </tr>
        ))}
      </tbody>
    </TableArea>
  );
}

/** Whether Save will update a recorded visit (true) or record a new one (false). */
export const updatesRecordedVisit = (data: PatientVisitForm) => typeof data.id === "number";

/**
 * The patient visit editor (spec §2.5, §4): patient, then study, then visit; each choice resets what
 * depends on it. Choosing a visit never reopens one of its records: Save records a new one, and the
 * visit's earlier records and deviations are listed below (issue 43). A record opened by its own uuid
 * is edited. `onRecordChange` learns whether Save will update a recorded visit, so the title can say so.
 */
export function PatientVisitFields({
  form,
  site,
  onRecordChange,
}: {
  form: FormApi<PatientVisitForm>;
  site: SiteOption;
  onRecordChange?: (updates: boolean | null) => void;
}) {
  const [onlyAssigned, setOnlyAssigned] = useState(true);
  const data = form.formData;
  const visitOptions = useVisitOptions(data.patientId, data.studyId);
  const visitsById = new Map((visitOptions.data ?? []).map((v) => [v.visitId, v]));
  const chosen = visitsById.get(data.visitId ?? -1);
  const reset = (next: PatientVisitForm) => form.setFormData(withUuid(next, data));
  // Until a patient is chosen (or loaded) the route says what Save does.
  const updates = data.patientId ? updatesRecordedVisit(data) : null;
  useEffect(() => onRecordChange?.(updates), [onRecordChange, updates]);
  // A loaded visit whose patient, study or visit was changed: Save records a new one (issue 15).
  const leavesRecorded = updatesRecordedVisit(form.originalData) && !updatesRecordedVisit(data);
  // The recorded visit open here: its source verification and queries (issue 44).
  const editsRecorded = updatesRecordedVisit(data) && data.id === form.originalData.id;
  const reopens =
    editsRecorded &&
    form.originalData.sdvStatus === "VERIFIED" &&
    reopensVerification(form.originalData, data);

  const patientField: FieldSpec = {
    name: "patientId",
    label: "Patient",
    required: true,
    kind: "select",
    placeholder: "Type to select a patient ...",
    emptyText: "No item found",
    lookup: patientLookup(site, onlyAssigned),
  };
  // Choosing a patient goes through the reset rule rather than setting one value.
  const patientForm = {
    ...form,
    setValue: (_: string, value: unknown) => reset(choosePatient(value as number)),
  };

  return (
    <div className="grid max-w-3xl grid-cols-1 gap-4 md:grid-cols-2">
      {leavesRecorded && (
        <p
          role="status"
          className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900 md:col-span-2"
        >
          Saving records a new visit; the visit opened here stays as it was.
        </p>
      )}
      <div className="flex flex-col gap-2 md:col-span-2">
        <FormField spec={patientField} form={patientForm} />
        <Checkbox
          id="only-assigned-patients"
          label="Only assigned patients"
          checked={onlyAssigned}
          onCheckedChange={setOnlyAssigned}
        />
      </div>
      <PatientStudyField
        patientId={data.patientId}
        studyId={data.studyId}
        error={form.errors.studyId}
        onChange={(studyId) => reset(chooseStudy(data, studyId))}
      />
      <Field id={fieldId("visitId")} label="Visit" required error={form.errors.visitId}>
        {(control) => (
          <SearchableSelect
            {...control}
            options={(visitOptions.data ?? []).map((v) => ({ value: v.visitId, label: v.visitName }))}
            loading={Boolean(data.studyId) && visitOptions.isPending}
            disabled={!data.studyId}
            value={data.visitId}
            onChange={(visitId) => reset(chooseVisit(data, visitId))}
            placeholder={data.studyId ? "Type to select a visit ..." : "Select a study first"}
            emptyText="No item found"
            renderOption={(option) => {
              const visit = visitsById.get(option.value);
              const recorded = visit ? recordedText(visit) : "";
              return (
                <span className="flex w-full items-center justify-between gap-2">
                  <span>{option.label}</span>
                  {recorded && <span className="text-xs text-gray-500">{recorded}</span>}
                </span>
              );
            }}
          />
        )}
      </Field>
      <PlannedWindow visit={chosen} visitDate={data.visitDate} />
      <VisitSituation visit={chosen} />
      {editsRecorded && <VisitVerification visit={form.originalData} />}
      {reopens && (
        <p
          role="status"
          className="w-fit rounded-md border border-amber-300 bg-amber-50 px-2 py-1 text-sm font-medium text-amber-900 md:col-span-2"
        >
          Saving this change reopens the source verification: the monitor verifies the visit again.
        </p>
      )}
      <FormField spec={dateField} form={form} />
      <Field id={fieldId("visitTime")} label="Visit time" hint="HH:mm" error={form.errors.visitTime}>
        {(control) => (
          <Input
            {...control}
            inputMode="numeric"
            maxLength={5}
            placeholder="HH:mm"
            autoComplete="off"
            invalid={Boolean(form.errors.visitTime)}
            className="max-w-28"
            value={data.visitTime ?? ""}
            onChange={(event) => form.setValue("visitTime", typedTime(event.target.value))}
          />
        )}
      </Field>
      <FormField spec={statusField} form={form} />
      {showsVisitResult(data.visitStatus) ? <FormField spec={resultField} form={form} /> : <div />}
      <div className="md:col-span-2">
        <FormField spec={notesField} form={form} />
      </div>
      <VisitFile visit={chosen} openRecordId={data.id} />
    </div>
  );
}

const createTitle = "Add new visit";
const editTitle = "Modify patient visit";

export type FormOptions = {
  /** A new visit starts with these chosen (the worklist's Record visit). */
  prefill?: PatientVisitForm;
  /** Whether Save updates a recorded visit, as the fields report it; null follows the route. */
  updates?: boolean | null;
  onRecordChange?: (updates: boolean | null) => void;
  onSaved?: (saved: PatientVisitForm) => void;
  /** Where Save goes instead of the saved visit (the worklist page it was opened from). */
  afterSaveRoute?: string | null;
};

/**
 * The window engine's date rules (issue 43), as far as the browser knows them: a completed or arrived
 * visit needs a date, not in the future. A day of slack, as the site's day may be ahead of the
 * browser's; the server checks that with the site's day, and the assignment's start and the study's
 * LPLV, and answers on the date field.
 */
export const validateVisit = (data: PatientVisitForm) => ({
  ...validatePatientVisit(data),
  ...visitDateErrors(data, { today: addDays(toIsoDate(new Date()), 1), startDate: null, lplv: null }),
});

/** Recording a visit that already has a completed record asks first (issue 43). */
export async function confirmAnotherRecord(data: PatientVisitForm): Promise<SaveQuestion | null> {
  if (updatesRecordedVisit(data) || !data.patientId || !data.studyId || !data.visitId) return null;
  const detail = await api.get<PatientVisitDetail>("patient-visit-detail", {
    patientId: data.patientId,
    studyId: data.studyId,
  });
  if (!hasCompletedRecord(detail.visits[String(data.visitId)])) return null;
  return {
    title: "Visit already completed",
    text: visitDateMessages.completedExists,
    confirmLabel: "Yes, record another",
  };
}

export const formOf = (site: SiteOption, options: FormOptions = {}): FormDescription<PatientVisitForm> => {
  // The title follows what Save will do, not only the route (issue 15).
  const title = options.updates === true ? editTitle : options.updates === false ? createTitle : undefined;
  return {
    resource: "patient-visits",
    createTitle: title ?? createTitle,
    editTitle: title ?? editTitle,
    empty: () => ({ ...emptyPatientVisit(), ...options.prefill }),
    validate: validateVisit,
    confirmSave: confirmAnotherRecord,
    errorBar: true,
    onSaved: options.onSaved,
    afterSaveRoute: options.afterSaveRoute,
    fields: (form) => <PatientVisitFields form={form} site={site} onRecordChange={options.onRecordChange} />,
  };
};

type PatientVisitView = PatientVisit & {
  /** Not for a monitor (issue 44). */
  patientName?: string;
  barcode: string;
  studyName: string;
  visitName: string;
  screenNumber: string | null;
};

/** The rows every reader sees after the patient's. */
const visitRows: DetailDescription<PatientVisitView>["rows"] = [
  { label: "Screen Nr", value: (v) => show(v.screenNumber) },
  { label: "Study", value: (v) => v.studyName },
  { label: "Visit", value: (v) => v.visitName },
  { label: "Visit date", value: (v) => show(v.visitDate) },
  { label: "Visit time", value: (v) => show(v.visitTime) },
  { label: "Visit status", value: (v) => <VisitStatusBadge status={v.visitStatus} /> },
  { label: "Visit result", value: (v) => show(optionLabel(visitResults, v.visitResult)) },
  { label: "Notes", value: (v) => show(v.notes) },
  {
    label: "Source verification",
    value: (v) => (
      <SdvState
        sdvStatus={v.sdvStatus}
        sdvVerifiedByName={v.sdvVerifiedByName}
        sdvVerifiedAt={v.sdvVerifiedAt}
      />
    ),
  },
  { label: "Open queries", value: (v) => <OpenQueries patientVisitId={v.id} count={v.openQueries} /> },
];

/**
 * A recorded visit. A monitor (issue 44) sees the patient by barcode and screen number, never by name,
 * changes nothing, and raises a query from the visit's queries; staff see the queries too.
 */
const detailOf = (monitor: boolean): DetailDescription<PatientVisitView> => ({
  resource: "patient-visits",
  rows: [
    monitor
      ? { label: "Barcode", value: (v) => show(v.barcode) }
      : { label: "Patient", value: (v) => show(v.patientName) },
    ...visitRows,
  ],
  after: (visit) => <VisitQueries patientVisitId={visit.id} monitor={monitor} />,
});

export const List = siteScopedList(listOf);

const positiveId = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

/** Only a path inside the app: never another site (`//host`, `https:`). */
const localPath = (value: string | null) =>
  value?.startsWith("/") && !value.startsWith("//") ? value : null;

/**
 * The choices the worklist's Record visit hands over: `?patientId=&studyId=&visitId=`. Such a visit
 * starts as done today (issue 46): the date and the status Completed, which the person changes when
 * the visit was another day or is only being booked.
 */
function usePrefill(params: URLSearchParams, isNew: boolean) {
  const patientId = isNew ? positiveId(params.get("patientId")) : null;
  const studyId = patientId ? positiveId(params.get("studyId")) : null;
  const visitId = studyId ? positiveId(params.get("visitId")) : null;
  // The patient select names its choice from the form data, so read the patient's name first.
  const patient = useQuery({
    queryKey: queryKeys.prefillPatient(patientId),
    queryFn: () => api.get<Patient>(`patients/${patientId}`),
    enabled: patientId !== null,
  });
  const p = patient.data;
  const patientName = p ? `${p.patientDetail.lastName} ${p.patientDetail.firstName} (${p.barcode})` : null;
  const prefill = useMemo(
    () =>
      patientId === null
        ? undefined
        : {
            patientId,
            studyId,
            visitId,
            patientName,
            visitDate: toIsoDate(new Date()),
            visitStatus: "COMPLETED" as const,
          },
    [patientId, studyId, visitId, patientName],
  );
  return { ready: patientId === null || !patient.isPending, prefill };
}

export function Form() {
  const { site } = useActiveSite();
  const { itemId } = useParams();
  const [params] = useSearchParams();
  const [updates, setUpdates] = useState<boolean | null>(null);
  const { ready, prefill } = usePrefill(params, !itemId);
  const returnTo = localPath(params.get("returnTo"));
  const description = useMemo(() => {
    if (!site) return null;
    // Saving goes back to the worklist page the visit was opened from, in place of the form. What the
    // worklist, the summary, the home tiles and the deviations show is read again (derivedViews).
    return formOf(site, { prefill, updates, onRecordChange: setUpdates, afterSaveRoute: returnTo });
  }, [site, prefill, updates, returnTo]);
  if (!description) return <NoSiteChosen />;
  return ready ? <FormScreen description={description} /> : <Spinner label="Loading..." />;
}

export function Detail() {
  const { user } = useSession();
  const monitor = user?.kind === "monitor";
  const description = useMemo(() => detailOf(monitor), [monitor]);
  return <DetailScreen description={description} />;
}
