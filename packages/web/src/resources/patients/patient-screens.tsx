import { useQuery } from "@tanstack/react-query";
import {
  birthDateBounds,
  birthDateRule,
  contactTypes,
  isActiveStatus,
  type ListData,
  lookupPageSizes,
  optionLabel,
  type Patient,
  type PatientContactInput,
  type PatientInput,
  type PatientListRow,
  type PatientLookupRow,
  type PatientSchedule,
  type PatientScheduleAssignment,
  type ProtocolDeviationListRow,
  patientName,
  patientStatuses,
  preparePatientForSave,
  type Site,
  type SiteOption,
  sameNamePatientMessage,
  sexes,
  shortDate,
  statusDetailsMaxLength,
  toIsoDate,
  validatePatient,
  visitStatuses,
  windowText,
} from "@trialdesk/domain";
import { type ReactNode, useMemo } from "react";
import { Link, useLocation } from "react-router";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queries";
import { getConfig } from "../../app/config";
import { useActiveSite } from "../../app/site";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { type FieldSpec, FormField } from "../../screens/FormFields";
import { type FormDescription, FormScreen, type SaveQuestion } from "../../screens/FormScreen";
import type { ListDescription } from "../../screens/ListScreen";
import { NoSiteChosen, siteScopedList } from "../../screens/site-scoped";
import type { FormApi } from "../../screens/useFormState";
import { Badge } from "../../ui/badge";
import { countryName } from "../../ui/country-select";
import { Panel } from "../../ui/panel";
import { Spinner } from "../../ui/spinner";
import { TableArea, Td, Th } from "../../ui/table";
import { DeviationTable } from "../protocol-deviations/deviation-parts";
import { VisitStateBadge } from "../worklist/visit-state";
import { bookedText, RecordVisitLink, recordable } from "../worklist/worklist-screen";
import { ContactsBlock } from "./contacts-block";

/** Green Active when the status is 1, otherwise red Inactive (spec §2.5). */
export const StatusBadge = ({ status }: { status: unknown }) =>
  isActiveStatus(status) ? <Badge color="green">Active</Badge> : <Badge color="red">Inactive</Badge>;

const listOf = (site: SiteOption): ListDescription<PatientListRow> => ({
  resource: "patients",
  // The active site's patients, as list rows with the derived name, phone and study code.
  query: { format: "list", siteId: site.id },
  columns: [
    { key: "id", title: "Id", sortable: true, className: "w-16" },
    { key: "barcode", title: "Barcode", sortable: true },
    { key: "name", title: "Name", sortable: true },
    { key: "birthDate", title: "Birth date", sortable: true, className: "text-center" },
    { key: "ssn", title: "SSN", sortable: true },
    { key: "phone", title: "Phone" },
    // The study's working name (two studies of one project share its code, shown on hover).
    {
      key: "studyWorkingName",
      title: "Study",
      className: "text-center",
      format: (row) => <span title={row.projectInternalCode ?? undefined}>{row.studyWorkingName ?? ""}</span>,
    },
    {
      key: "status",
      title: "Status",
      sortable: true,
      format: (row) => <StatusBadge status={row.status} />,
    },
  ],
  describe: (row) => `${row.name} (${row.barcode})`,
});

type Form = Partial<PatientInput>;

const detailFields = (bounds: { min: string; max: string }): FieldSpec[] => [
  { name: "barcode", label: "Barcode", readOnly: true, emptyHint: "Given when the patient is first saved" },
  { name: "patientDetail.firstName", label: "First name", required: true },
  { name: "patientDetail.lastName", label: "Last name", required: true },
  { name: "patientDetail.ssn", label: "SSN" },
  { name: "patientDetail.birthName", label: "Birth name" },
  { name: "patientDetail.motherName", label: "Mother name" },
  { name: "patientDetail.birthCity", label: "Birth city" },
  { name: "patientDetail.birthCountryCode", label: "Birth country", kind: "country" },
  { name: "patientDetail.birthDate", label: "Birth date", kind: "date", min: bounds.min, max: bounds.max },
];

const addressFields: FieldSpec[] = [
  { name: "address.countryCode", label: "Country", kind: "country" },
  { name: "address.postalCode", label: "Postal code", width: "small", maxLength: 20 },
  { name: "address.city", label: "City" },
  { name: "address.streetAddress", label: "Street address", width: "full" },
];

const statusField: FieldSpec = {
  name: "status",
  label: "Status",
  kind: "select",
  options: patientStatuses.map((s) => ({ value: s.value, label: s.label })),
};
const statusDetailsField: FieldSpec = {
  name: "statusDetails",
  label: "Inactivity reason",
  maxLength: statusDetailsMaxLength,
  width: "full",
};

/** The sex radio (spec §2.5): Male or Female; a new patient is UNK, neither chosen. */
function SexRadio({ form }: { form: FormApi<Form> }) {
  const sex = form.formData.patientDetail?.sex;
  return (
    <fieldset>
      <legend className="text-sm font-medium text-gray-800">Sex</legend>
      <div className="mt-1 flex gap-4">
        {sexes.map((option) => (
          <label key={option.value} className="inline-flex items-center gap-1.5 text-sm text-gray-900">
            <input
              type="radio"
              name="patientDetail.sex"
              value={option.value}
              checked={sex === option.value}
              onChange={() => form.setValue("sex", option.value)}
              className="size-4 accent-blue-700"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <section
    aria-label={title}
    className="flex flex-col gap-3 border-t border-gray-100 pt-4 first:border-0 first:pt-0"
  >
    <h2 className="text-base font-semibold text-gray-900">{title}</h2>
    {children}
  </section>
);

/** The patient editor's layout; every change goes through the generic form state's actions. */
function PatientFields({ form, phoneCountry }: { form: FormApi<Form>; phoneCountry: string | null }) {
  const { minimumPatientAge, maximumPatientAge } = getConfig();
  const bounds = birthDateBounds(toIsoDate(new Date()), minimumPatientAge, maximumPatientAge);
  const field = (spec: FieldSpec) => <FormField key={spec.name} spec={spec} form={form} />;
  return (
    <>
      <Section title="Patient">
        <SexRadio form={form} />
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">{detailFields(bounds).map(field)}</div>
      </Section>
      <div className="border-t border-gray-100 pt-4">
        <ContactsBlock
          contacts={form.formData.contacts as PatientContactInput[] | undefined}
          errors={form.errors}
          onChange={(contacts) => form.setPart("contacts", contacts)}
          phoneCountry={phoneCountry}
        />
      </div>
      <Section title="Address">
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">{addressFields.map(field)}</div>
      </Section>
      <div className="flex flex-col gap-3 border-t border-gray-100 pt-4">
        {field(statusField)}
        {!isActiveStatus(form.formData.status) && field(statusDetailsField)}
      </div>
    </>
  );
}

/**
 * A patient of the same name and birth date at the site is asked about before the save (issue 46,
 * point 4): "Save anyway" sends the save with `confirmDuplicate`, without which the server answers
 * 409 (it asks too, for a patient saved meanwhile). The site's patients of that name and birth date
 * are looked up as the server compares them (the list's birthDate, firstName and lastName filters:
 * trimmed, in any case, without accents). An edit that keeps its name and birth date finds itself
 * among them and is not asked, as the server does not ask it. An SSN another patient has is the
 * server's to refuse, on the SSN field.
 */
export async function confirmSameName(data: Form): Promise<SaveQuestion | null> {
  const detail = data.patientDetail;
  const siteId = data.recorderSiteId;
  if (data.confirmDuplicate || typeof siteId !== "number" || !detail?.birthDate) return null;
  if (!detail.firstName.trim() || !detail.lastName.trim()) return null;
  const found = await api.get<ListData<PatientLookupRow>>("patients", {
    format: "select",
    siteId,
    birthDate: detail.birthDate,
    firstName: detail.firstName,
    lastName: detail.lastName,
    pagesize: lookupPageSizes.patients,
  });
  const other = found.items.find((row) => row.uuid !== data.uuid);
  if (!other || found.items.some((row) => row.uuid === data.uuid)) return null;
  // The form sends the very data it asked about when the answer is yes: that save is confirmed.
  data.confirmDuplicate = true;
  return {
    title: "Possible duplicate patient",
    text: `${sameNamePatientMessage(other.barcode)}. Save this patient anyway?`,
    confirmLabel: "Save anyway",
  };
}

const formOf = (site: SiteOption, phoneCountry: string | null): FormDescription<Form> => ({
  resource: "patients",
  createTitle: "Add Patient",
  editTitle: "Edit Patient",
  // The age bounds hold for a typed birth date too, not only in the picker.
  validate: (data) => {
    const { minimumPatientAge, maximumPatientAge } = getConfig();
    return validatePatient(data, birthDateRule(toIsoDate(new Date()), minimumPatientAge, maximumPatientAge));
  },
  // Phones normalised, empty contacts left out, and the record is the active site's (spec §4 Patient).
  prepare: (data) => ({ ...preparePatientForSave(data, phoneCountry), recorderSiteId: site.id }),
  confirmSave: confirmSameName,
  fields: (form) => <PatientFields form={form} phoneCountry={phoneCountry} />,
});

/** How many of a patient's deviations the detail lists, latest detected first. */
const deviationsShown = 100;

/** The patient's protocol deviations (issue 43), each leading to its own detail. */
function PatientDeviations({ patient }: { patient: Patient }) {
  const query = { patientId: patient.id, page: 1, pagesize: deviationsShown };
  const deviations = useQuery({
    queryKey: queryKeys.list("protocol-deviations", query),
    queryFn: () => api.get<ListData<ProtocolDeviationListRow>>("protocol-deviations", query),
  });
  const items = deviations.data?.items ?? [];
  const total = deviations.data?.pagination.total ?? 0;
  return (
    <Panel aria-labelledby="patient-deviations" className="flex flex-col gap-3 p-4">
      <h2 id="patient-deviations" className="text-base font-semibold text-gray-900">
        Deviations
      </h2>
      {deviations.isPending ? (
        <Spinner label="Loading..." />
      ) : deviations.isError ? (
        <p role="alert" className="text-sm text-red-800">
          Loading failed: {deviations.error.message}
        </p>
      ) : items.length === 0 ? (
        <p className="text-sm text-gray-600">No protocol deviations</p>
      ) : (
        <>
          <DeviationTable label="Deviations of the patient" deviations={items} wide />
          {total > items.length && (
            <Link
              to={`/protocol-deviations?${new URLSearchParams({ searchTerm: patient.barcode })}`}
              className="text-sm font-medium text-blue-800 underline-offset-2 hover:underline"
            >
              All {total} deviations of the patient
            </Link>
          )}
        </>
      )}
    </Panel>
  );
}

/** One assignment's visit schedule: the engine's rows, each with Record visit while it can be recorded. */
function AssignmentSchedule({
  patient,
  assignment,
  returnTo,
}: {
  patient: Patient;
  assignment: PatientScheduleAssignment;
  returnTo: string;
}) {
  const name = patientName(patient.patientDetail.lastName, patient.patientDetail.firstName);
  const heading = `schedule-${assignment.studyPatientUuid}`;
  return (
    <section aria-labelledby={heading} className="flex flex-col gap-2">
      <h3 id={heading} className="flex flex-wrap items-center gap-2 text-sm font-semibold text-gray-900">
        <Link
          to={`/study-patients/${assignment.studyPatientUuid}`}
          className="text-blue-800 underline-offset-2 hover:underline"
        >
          {assignment.studyName}
        </Link>
        {assignment.screenNr && (
          <span className="font-normal text-gray-700">Screen Nr {assignment.screenNr}</span>
        )}
        {assignment.startDate && (
          <span className="font-normal text-gray-700">from {shortDate(assignment.startDate)}</span>
        )}
        {assignment.active ? <Badge color="green">Active</Badge> : <Badge color="red">Closed</Badge>}
      </h3>
      {assignment.rows.length === 0 ? (
        <p className="text-sm text-gray-600">No visits planned</p>
      ) : (
        <TableArea label={`Visit schedule of ${assignment.studyName}`}>
          <thead>
            <tr>
              <Th>Visit</Th>
              <Th>Window</Th>
              <Th>State</Th>
              <Th>Recorded</Th>
              <Th className="w-px">
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {assignment.rows.map((row) => (
              <tr key={row.visitId}>
                <Td>{row.visitName}</Td>
                <Td className="whitespace-nowrap">{windowText(row) || "—"}</Td>
                <Td>
                  <VisitStateBadge state={row.state} />
                </Td>
                <Td className="whitespace-nowrap">
                  {row.visitDate ? (
                    <>
                      {bookedText(row)}{" "}
                      <span className="text-gray-600">
                        {optionLabel(visitStatuses, row.visitStatus ?? undefined)}
                      </span>
                    </>
                  ) : (
                    "—"
                  )}
                </Td>
                <Td className="text-right">
                  {assignment.active && recordable(row.state) && (
                    <RecordVisitLink
                      row={{ ...row, patientId: patient.id, studyId: assignment.studyId, patientName: name }}
                      returnTo={returnTo}
                    />
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </TableArea>
      )}
    </section>
  );
}

/**
 * The patient's study assignments, each with its visit schedule (issue 46, point 11): the rows the
 * worklist reads, every state, with the recorded date and Record visit, which comes back here.
 */
function PatientVisitSchedule({ patient }: { patient: Patient }) {
  const location = useLocation();
  // Under the worklist's key: a saved visit, assignment or plan refreshes it with the worklist.
  const schedule = useQuery({
    queryKey: queryKeys.patientSchedule(patient.id),
    queryFn: () => api.get<PatientSchedule>("worklist/schedule", { patientId: patient.id }),
  });
  const assignments = schedule.data?.assignments ?? [];
  return (
    <Panel aria-labelledby="patient-schedule" className="flex flex-col gap-4 p-4">
      <h2 id="patient-schedule" className="text-base font-semibold text-gray-900">
        Studies and visits
      </h2>
      {schedule.isPending ? (
        <Spinner label="Loading..." />
      ) : schedule.isError ? (
        <p role="alert" className="text-sm text-red-800">
          Loading failed: {schedule.error.message}
        </p>
      ) : assignments.length === 0 ? (
        <p className="text-sm text-gray-600">Not assigned to a study</p>
      ) : (
        assignments.map((assignment) => (
          <AssignmentSchedule
            key={assignment.studyPatientUuid}
            patient={patient}
            assignment={assignment}
            returnTo={`${location.pathname}${location.search}`}
          />
        ))
      )}
    </Panel>
  );
}

const detail: DetailDescription<Patient> = {
  resource: "patients",
  after: (patient) => (
    <>
      <PatientVisitSchedule patient={patient} />
      <PatientDeviations patient={patient} />
    </>
  ),
  rows: [
    { label: "Barcode", value: (p) => p.barcode },
    { label: "Name", value: (p) => patientName(p.patientDetail.lastName, p.patientDetail.firstName) },
    { label: "First name", value: (p) => p.patientDetail.firstName },
    { label: "Last name", value: (p) => p.patientDetail.lastName },
    {
      label: "Sex",
      value: (p) => sexes.find((s) => s.value === p.patientDetail.sex)?.label ?? "—",
    },
    { label: "SSN", value: (p) => show(p.patientDetail.ssn) },
    { label: "Birth name", value: (p) => show(p.patientDetail.birthName) },
    { label: "Mother name", value: (p) => show(p.patientDetail.motherName) },
    { label: "Birth city", value: (p) => show(p.patientDetail.birthCity) },
    { label: "Birth country", value: (p) => show(countryName(p.patientDetail.birthCountryCode)) },
    { label: "Birth date", value: (p) => show(p.patientDetail.birthDate) },
    {
      label: "Contacts",
      value: (p) =>
        p.contacts.length === 0 ? (
          "—"
        ) : (
          <ul className="flex flex-col gap-0.5">
            {p.contacts.map((c) => (
              <li key={c.id ?? c.value}>
                <span className="font-medium">
                  {contactTypes.find((type) => type.value === c.contactType)?.label ?? c.contactType}
                </span>{" "}
                {c.value}
                {c.notes && <span className="text-gray-600"> — {c.notes}</span>}
              </li>
            ))}
          </ul>
        ),
    },
    { label: "Country", value: (p) => show(countryName(p.address?.countryCode)) },
    { label: "Postal code", value: (p) => show(p.address?.postalCode) },
    { label: "City", value: (p) => show(p.address?.city) },
    { label: "Street address", value: (p) => show(p.address?.streetAddress) },
    { label: "Status", value: (p) => <StatusBadge status={p.status} /> },
    { label: "Inactivity reason", value: (p) => show(p.statusDetails) },
    // The rest of the spec's other listing of the view (id, uuid, barcode, status and statusDetails are above).
    { label: "Address id", value: (p) => (p.addressId === null ? "—" : String(p.addressId)) },
    { label: "Recorder site id", value: (p) => String(p.recorderSiteId) },
  ],
};

export const List = siteScopedList(listOf);

/** The active site's country, the default region of its patients' local phone numbers (issue 15). */
function useSiteCountry(site: SiteOption | null): string | null {
  const { data } = useQuery({
    queryKey: queryKeys.siteCountry(site?.uuid),
    queryFn: () => api.get<Site>(`sites/${site?.uuid}`),
    enabled: Boolean(site),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data?.countryCode ?? null;
}

export function Form() {
  const { site } = useActiveSite();
  const country = useSiteCountry(site);
  const description = useMemo(() => (site ? formOf(site, country) : null), [site, country]);
  return description ? <FormScreen description={description} /> : <NoSiteChosen />;
}

export const Detail = () => <DetailScreen description={detail} />;
