import {
  daysOutsideText,
  deviationDescriptionMaxLength,
  deviationKinds,
  deviationSeverities,
  deviationSources,
  deviationStatuses,
  emptyProtocolDeviation,
  lookupPageSizes,
  manualDeviationKinds,
  notesMaxLength,
  optionLabel,
  type ProtocolDeviation,
  type ProtocolDeviationInput,
  type ProtocolDeviationListRow,
  type SiteOption,
} from "@trialdesk/domain";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { type FieldSpec, FormField, fieldId } from "../../screens/FormFields";
import type { FormDescription } from "../../screens/FormScreen";
import type { ListDescription, ListFilter, Row } from "../../screens/ListScreen";
import { siteScopedForm, siteScopedList } from "../../screens/site-scoped";
import type { FormApi } from "../../screens/useFormState";
import { Field } from "../../ui/field";
import { Input } from "../../ui/input";
import { SearchableSelect } from "../../ui/select";
import { PatientStudyField, patientLookup, useVisitOptions } from "../patient-visits/patient-visit-screens";
import { DeviationStatusBadge, kindLabel, SeverityBadge, severityLabel } from "./deviation-parts";

/**
 * Protocol deviations (issue 43; ICH E6(R2) 4.5.3): the ones Trialdesk records by itself when a visit
 * falls outside its window or is missed, and the ones staff enter by hand. Site-scoped through the
 * patient, like patient visits; never removed, only closed.
 */
const choices = (options: readonly { value: string; label: string }[]) =>
  options.map(({ value, label }) => ({ value, label }));

/** The studies, by working name (the visit summary's picker asks the same). */
const studyFilter: ListFilter = {
  param: "studyId",
  label: "Study",
  lookup: {
    resource: "studies",
    pageSize: lookupPageSizes.studies,
    query: { order: "workingName", direction: "asc" },
    option: (study: Row) => ({ value: study.id, label: study.workingName }),
  },
};

const listOf = (site: SiteOption): ListDescription<ProtocolDeviationListRow> => ({
  resource: "protocol-deviations",
  query: { siteId: site.id },
  filters: [
    { param: "status", label: "Status", options: choices(deviationStatuses) },
    { param: "kind", label: "Kind", options: choices(deviationKinds) },
    studyFilter,
  ],
  columns: [
    {
      key: "patientName",
      title: "Patient",
      sortable: true,
      className: "whitespace-nowrap",
      format: (row) => (
        <span className="flex flex-col">
          <span className="text-xs text-gray-600 tabular-nums">{row.barcode}</span>
          <span className="font-medium">{row.patientName}</span>
        </span>
      ),
    },
    { key: "studyName", title: "Study", sortable: true },
    { key: "visitName", title: "Visit", sortable: true, format: (row) => row.visitName ?? "—" },
    { key: "kind", title: "Kind", sortable: true, format: (row) => kindLabel(row.kind) },
    {
      key: "daysOutside",
      title: "Days outside",
      sortable: true,
      className: "whitespace-nowrap",
      format: (row) => daysOutsideText(row.daysOutside),
    },
    { key: "detectedOn", title: "Detected", sortable: true, className: "whitespace-nowrap" },
    {
      key: "severity",
      title: "Severity",
      sortable: true,
      format: (row) => <SeverityBadge severity={row.severity} />,
    },
    {
      key: "status",
      title: "Status",
      sortable: true,
      format: (row) => <DeviationStatusBadge status={row.status} noLongerApplies={row.noLongerApplies} />,
    },
  ],
  describe: (row) => `${kindLabel(row.kind)} of ${row.patientName}`,
});

type DeviationForm = Partial<ProtocolDeviationInput>;

/** A value Trialdesk derived, shown but never changed (an automatic deviation's kind, visit, days). */
function Derived({ name, label, value }: { name: string; label: string; value: string }) {
  return (
    <Field id={fieldId(name)} label={label}>
      {(control) => <Input {...control} readOnly value={value} className="bg-gray-50" />}
    </Field>
  );
}

const patientText = (data: Row) =>
  data.patientName ? `${data.patientName}${data.barcode ? ` (${data.barcode})` : ""}` : "";

/** The patient, study, visit and kind staff choose for a deviation they enter by hand. */
function ManualChoices({ form, site }: { form: FormApi<DeviationForm>; site: SiteOption }) {
  const data = form.formData;
  const visits = useVisitOptions(data.patientId, data.studyId);
  const patientField: FieldSpec = {
    name: "patientId",
    label: "Patient",
    required: true,
    kind: "select",
    placeholder: "Type to select a patient ...",
    emptyText: "No item found",
    lookup: {
      ...patientLookup(site, true),
      selected: (row) =>
        row.patientId && row.patientName ? { value: row.patientId, label: patientText(row) } : null,
    },
  };
  // Another patient or study leaves the choices that depended on it.
  const patientForm = {
    ...form,
    setValue: (_: string, value: unknown) =>
      form.setFormData({ ...data, patientId: value as number, studyId: null, visitId: null }),
  };
  // "No particular visit": a deviation need not concern one visit (e.g. informed consent).
  const noVisit = 0;
  return (
    <>
      <div className="md:col-span-2">
        <FormField spec={patientField} form={patientForm} />
      </div>
      <PatientStudyField
        patientId={data.patientId}
        studyId={data.studyId}
        error={form.errors.studyId}
        onChange={(studyId) => form.setFormData({ ...data, studyId, visitId: null })}
      />
      <Field id={fieldId("visitId")} label="Visit" error={form.errors.visitId}>
        {(control) => (
          <SearchableSelect
            {...control}
            options={[
              { value: noVisit, label: "No particular visit" },
              ...(visits.data ?? []).map((v) => ({ value: v.visitId, label: v.visitName })),
            ]}
            loading={Boolean(data.studyId) && visits.isPending}
            disabled={!data.studyId}
            value={data.studyId ? (data.visitId ?? noVisit) : null}
            onChange={(visitId) => form.setValue("visitId", visitId === noVisit ? null : visitId)}
            placeholder="Select a study first"
            emptyText="No item found"
          />
        )}
      </Field>
      <FormField
        form={form}
        spec={{
          name: "kind",
          label: "Kind",
          required: true,
          kind: "select",
          placeholder: "Please select ...",
          options: choices(manualDeviationKinds),
        }}
      />
    </>
  );
}

/**
 * The deviation editor. A new one is entered by hand: patient, study, visit (optional) and kind. On an
 * automatic one what Trialdesk derived (kind, patient, study, visit, days outside, detected on) is
 * shown read-only; staff write its description, severity, status and dates, as on any other. Only
 * Trialdesk withdraws a deviation, so Withdrawn is offered only to one that already is.
 */
function DeviationFields({ form, site }: { form: FormApi<DeviationForm>; site: SiteOption }) {
  const data = form.formData as DeviationForm & Row;
  const automatic = data.source === "AUTOMATIC";
  const withdrawn = form.originalData.status === "WITHDRAWN";
  const statusOptions = choices(deviationStatuses.filter((s) => s.value !== "WITHDRAWN" || withdrawn));
  const field = (spec: FieldSpec) => <FormField key={spec.name} spec={spec} form={form} />;
  return (
    <div className="grid max-w-3xl grid-cols-1 gap-4 md:grid-cols-2">
      {automatic ? (
        <>
          <p role="note" className="text-sm text-gray-700 md:col-span-2">
            Trialdesk recorded this deviation from the visit's window; what it derived cannot be changed.
          </p>
          <Derived name="kind" label="Kind" value={kindLabel(data.kind)} />
          <Derived name="patientId" label="Patient" value={patientText(data)} />
          <Derived name="studyId" label="Study" value={data.studyName ?? ""} />
          <Derived name="visitId" label="Visit" value={data.visitName ?? "—"} />
          <Derived name="daysOutside" label="Days outside" value={daysOutsideText(data.daysOutside) || "—"} />
          <Derived name="detectedOn" label="Detected on" value={data.detectedOn ?? ""} />
        </>
      ) : (
        <ManualChoices form={form} site={site} />
      )}
      <div className="md:col-span-2">
        {field({
          name: "description",
          label: "Description",
          required: true,
          kind: "textarea",
          maxLength: deviationDescriptionMaxLength,
          width: "full",
        })}
      </div>
      {field({ name: "severity", label: "Severity", kind: "select", options: choices(deviationSeverities) })}
      {field({ name: "status", label: "Status", kind: "select", options: statusOptions })}
      {/* The dates each status needs (validateProtocolDeviation); a date already given stays in view. */}
      {(data.status === "REPORTED" || data.status === "CLOSED" || data.reportedOn) &&
        field({
          name: "reportedOn",
          label: "Reported on",
          kind: "date",
          required: data.status === "REPORTED",
        })}
      {(data.status === "CLOSED" || data.closedOn) &&
        field({ name: "closedOn", label: "Closed on", kind: "date", required: data.status === "CLOSED" })}
      <div className="md:col-span-2">
        {field({
          name: "correctiveAction",
          label: "Corrective action",
          kind: "textarea",
          maxLength: notesMaxLength,
          width: "full",
        })}
      </div>
    </div>
  );
}

const formOf = (site: SiteOption): FormDescription<DeviationForm> => ({
  resource: "protocol-deviations",
  createTitle: "New protocol deviation",
  // The source goes with the data so the validator knows an automatic one (the server never takes it).
  empty: () => ({ ...emptyProtocolDeviation(), source: null }),
  errorBar: true,
  fields: (form) => <DeviationFields form={form} site={site} />,
});

const detail: DetailDescription<ProtocolDeviation> = {
  resource: "protocol-deviations",
  rows: [
    { label: "Patient", value: (d) => show(patientText(d)) },
    { label: "Study", value: (d) => show(d.studyName) },
    { label: "Visit", value: (d) => show(d.visitName) },
    { label: "Kind", value: (d) => show(kindLabel(d.kind)) },
    { label: "Recorded", value: (d) => show(optionLabel(deviationSources, d.source)) },
    { label: "Days outside", value: (d) => show(daysOutsideText(d.daysOutside)) },
    { label: "Detected on", value: (d) => show(d.detectedOn) },
    { label: "Description", value: (d) => show(d.description) },
    { label: "Severity", value: (d) => show(severityLabel(d.severity)) },
    {
      label: "Status",
      value: (d) =>
        d.status ? <DeviationStatusBadge status={d.status} noLongerApplies={d.noLongerApplies} /> : "—",
    },
    { label: "Reported on", value: (d) => show(d.reportedOn) },
    { label: "Corrective action", value: (d) => show(d.correctiveAction) },
    { label: "Closed on", value: (d) => show(d.closedOn) },
  ],
};

export const List = siteScopedList(listOf);

export const Form = siteScopedForm(formOf);

export const Detail = () => <DetailScreen description={detail} />;
