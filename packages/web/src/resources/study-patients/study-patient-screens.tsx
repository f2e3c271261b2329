import {
  assignmentUsedByVisitsMessage,
  type CloseReason,
  closeReasons,
  emptyStudyPatient,
  isActiveStatus,
  isClosed,
  lookupPageSizes,
  notesMaxLength,
  optionLabel,
  type Patient,
  patientName,
  patientOptionLabel,
  type SiteOption,
  type StudyPatient,
  type StudyPatientInput,
  type StudyPatientListRow,
  toIsoDate,
} from "@trialdesk/domain";
import { api } from "../../api/client";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { type FieldSpec, FormField, type Lookup } from "../../screens/FormFields";
import type { FormDescription, SaveQuestion } from "../../screens/FormScreen";
import type { ListDescription, Row } from "../../screens/ListScreen";
import { siteScopedForm, siteScopedList } from "../../screens/site-scoped";
import type { FormApi } from "../../screens/useFormState";
import { Badge } from "../../ui/badge";
import { Switch } from "../../ui/switch";

/** Active green, Closed red (spec §2.5). */
export const AssignmentStatus = ({ active }: { active: unknown }) =>
  active === false ? <Badge color="red">Closed</Badge> : <Badge color="green">Active</Badge>;

const nameOf = (row: { lastName?: string | null; firstName?: string | null }) =>
  patientName(row.lastName ?? "", row.firstName ?? "");

/** The active site's assignments (spec §2.5 columns). */
type ListRow = StudyPatientListRow & Pick<StudyPatient, "studyWorkingName">;

/** A close reason in words (issue 15: not codes such as EOS). */
const closeReasonText = (reason: CloseReason | null | undefined) => optionLabel(closeReasons, reason) || null;

const listOf = (site: SiteOption): ListDescription<ListRow> => ({
  resource: "study-patients",
  query: { siteId: site.id },
  columns: [
    { key: "id", title: "Id", sortable: true, className: "w-16" },
    { key: "barcode", title: "Barcode", sortable: true },
    { key: "patientName", title: "Patient", sortable: true, format: nameOf },
    // The study's working name (two studies of one project share its code, shown on hover).
    {
      key: "studyWorkingName",
      title: "Study",
      sortable: true,
      format: (row) => <span title={row.projectInternalCode ?? undefined}>{row.studyWorkingName ?? ""}</span>,
    },
    { key: "screenNr", title: "Screen Nr", sortable: true },
    { key: "randomNr", title: "Random Nr", sortable: true },
    { key: "startDate", title: "Start date", sortable: true },
    {
      key: "active",
      title: "Status",
      sortable: true,
      format: (row) => <AssignmentStatus active={row.active} />,
    },
  ],
  describe: (row) => `${nameOf(row)} (${row.barcode})`,
});

type Form = Partial<StudyPatientInput>;

const patientLabel = (p: Row) => patientOptionLabel(p);

/** The patient lookup of spec §7: the active site's patients, searched on the server as one types. */
const patientLookup = (site: SiteOption): Lookup => ({
  resource: "patients",
  pageSize: lookupPageSizes.patients,
  query: { forSelect: "true", siteId: site.id },
  search: "search",
  option: (p) => ({ value: p.id, label: patientLabel(p) }),
  // An edited assignment names its patient even when a search does not list them.
  selected: (data) => (data.barcode ? { value: data.patientId, label: patientLabel(data) } : null),
});

const studyLabel = (s: Row) =>
  s.projectInternalCode ? `${s.projectInternalCode} — ${s.workingName}` : String(s.workingName);

/** The study lookup of spec §7: page 1, size 100, with search. */
const studyLookup: Lookup = {
  resource: "studies",
  pageSize: lookupPageSizes.studies,
  search: "searchTerm",
  option: (s) => ({ value: s.id, label: studyLabel(s) }),
  selected: (data) =>
    data.studyWorkingName
      ? {
          value: data.studyId,
          label: studyLabel({
            workingName: data.studyWorkingName,
            projectInternalCode: data.projectInternalCode,
          }),
        }
      : null,
};

const closeReasonField: FieldSpec = {
  name: "closeReason",
  label: "Close reason",
  required: true,
  kind: "select",
  options: closeReasons.map(({ value, label }) => ({ value, label })),
};

/**
 * The assignment editor: patient and study, numbers, start date, notes; for an existing assignment
 * the Close toggle, which sets active to false and asks for the close reason (spec §4).
 */
function StudyPatientFields({ form, site }: { form: FormApi<Form>; site: SiteOption }) {
  const field = (spec: FieldSpec) => <FormField key={spec.name} spec={spec} form={form} />;
  const data = form.formData as Form & Partial<StudyPatient>;
  const existing = typeof data.id === "number";
  const closed = isClosed(data);
  // Visits recorded under the assignment keep its patient and study (decision 153): said before Save.
  const kept = (form.originalData as Partial<StudyPatient>).hasVisits === true;
  const fields: FieldSpec[] = [
    {
      name: "patientId",
      label: "Patient",
      required: true,
      kind: "select",
      lookup: patientLookup(site),
      placeholder: "Type to select a patient ...",
      emptyText: "No item found",
      readOnly: kept,
    },
    {
      name: "studyId",
      label: "Study",
      required: true,
      kind: "select",
      lookup: studyLookup,
      placeholder: "Type to select a study ...",
      emptyText: "No item found",
      readOnly: kept,
      hint: kept ? assignmentUsedByVisitsMessage : undefined,
    },
    { name: "screenNr", label: "Screen number" },
    { name: "randomNr", label: "Random number" },
    { name: "startDate", label: "Start date", kind: "date" },
  ];
  return (
    <>
      <div className="grid max-w-3xl grid-cols-1 gap-4 md:grid-cols-2">{fields.map(field)}</div>
      <div className="max-w-3xl">
        {field({ name: "notes", label: "Notes", kind: "textarea", maxLength: notesMaxLength })}
      </div>
      {existing && (
        <div className="flex max-w-3xl flex-col gap-3 border-t border-gray-100 pt-4">
          <Switch
            id="field-close"
            label="Close"
            checked={closed}
            describedBy="field-close-hint"
            onCheckedChange={(close) => form.setValue("active", !close)}
          />
          <p id="field-close-hint" className="text-xs text-gray-600">
            {!closed
              ? "Closes the patient's assignment to this study."
              : data.closeDate
                ? `Closed${data.closedByName ? ` by ${data.closedByName}` : ""} on ${data.closeDate}.`
                : "The assignment is closed when saved."}
          </p>
          {closed && <div className="max-w-sm">{field(closeReasonField)}</div>}
        </div>
      )}
    </>
  );
}

const formOf = (site: SiteOption): FormDescription<Form> => ({
  resource: "study-patients",
  createTitle: "Assign patient to study",
  editTitle: "Edit Study patient data",
  // A new assignment starts today unless told otherwise.
  empty: () => ({ ...emptyStudyPatient(), startDate: toIsoDate(new Date()) }),
  errorBar: true,
  confirmSave: confirmInactive,
  fields: (form) => <StudyPatientFields form={form} site={site} />,
});

/** Assigning an inactive patient to a study is asked about first. */
async function confirmInactive(data: Form): Promise<SaveQuestion | null> {
  if (typeof data.id === "number" || typeof data.patientId !== "number") return null;
  const patient = await api.get<Patient>(`patients/${data.patientId}`);
  if (isActiveStatus(patient.status)) return null;
  return {
    title: "Inactive patient",
    text: `${patientOptionLabel({ ...patient.patientDetail, barcode: patient.barcode })} is inactive. Assign this patient to the study anyway?`,
    confirmLabel: "Yes, assign",
  };
}

const detail: DetailDescription<StudyPatient> = {
  resource: "study-patients",
  rows: [
    { label: "Patient", value: (sp) => nameOf(sp) },
    { label: "Barcode", value: (sp) => show(sp.barcode) },
    { label: "Study", value: (sp) => show(sp.studyWorkingName) },
    { label: "Project code", value: (sp) => show(sp.projectInternalCode) },
    { label: "Screen number", value: (sp) => show(sp.screenNr) },
    { label: "Random number", value: (sp) => show(sp.randomNr) },
    { label: "Start date", value: (sp) => show(sp.startDate) },
    { label: "Started by", value: (sp) => show(sp.startedByName) },
    { label: "Status", value: (sp) => <AssignmentStatus active={sp.active} /> },
    { label: "Close date", value: (sp) => show(sp.closeDate) },
    { label: "Close reason", value: (sp) => show(closeReasonText(sp.closeReason)) },
    { label: "Closed by", value: (sp) => show(sp.closedByName) },
    { label: "Notes", value: (sp) => show(sp.notes) },
  ],
};

export const List = siteScopedList(listOf);

export const Form = siteScopedForm(formOf);

export const Detail = () => <DetailScreen description={detail} />;
