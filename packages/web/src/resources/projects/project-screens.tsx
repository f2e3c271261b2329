import * as Tabs from "@radix-ui/react-tabs";
import {
  currencies,
  type emptyProject,
  type FinanceNumberField,
  financeNumberFields,
  firstProjectTabWithError,
  lookupPageSizes,
  optionLabel,
  type ProjectTab,
  type ProjectView,
  phases,
  projectFieldTab,
  projectInternalCodeOf,
  projectStatuses,
  projectTabErrorCounts,
  projectTabs,
  readFinanceInput,
  valueAt,
  vatOptions,
} from "@trialdesk/domain";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useLookupRows } from "../../api/queries";
import { useSession } from "../../app/session";
import { useActiveSite } from "../../app/site";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { type FieldSpec, FormField, fieldId, type Lookup } from "../../screens/FormFields";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import type { FormApi } from "../../screens/useFormState";
import { Field } from "../../ui/field";
import { Input } from "../../ui/input";
import { FinanceTotals } from "../finance/finance-parts";
import { siteLookup } from "../sites/site-lookup";

type ProjectForm = ReturnType<typeof emptyProject>;

/** Projects (spec §2.5, §3, §4, §5). */

const phaseLabel = (phase: number | null | undefined) => optionLabel(phases, phase as never);
const statusLabel = (status: number | null | undefined) => optionLabel(projectStatuses, status as never);
const yesNo = (value: unknown) => (value ? "Yes" : "No");

const list: ListDescription<ProjectView> = {
  resource: "projects",
  columns: [
    { key: "id", title: "Id", sortable: true, className: "w-20" },
    { key: "workingName", title: "Working name", sortable: true },
    { key: "protocolNr", title: "Protocol number", sortable: true },
    { key: "internalCode", title: "Internal code", sortable: true },
    {
      key: "phase",
      title: "Phase",
      sortable: true,
      className: "w-20",
      format: (item) => phaseLabel(item.details?.phase),
    },
  ],
  describe: (item) => `${item.workingName} (${item.protocolNr})`,
  options: { remove: true },
};

// The lookups of spec §7 (page 1, size 250); the selects and the internal code share their cache.
const croLookup: Lookup = {
  resource: "partners",
  pageSize: lookupPageSizes.partners,
  query: { cro: true },
  option: (p) => ({ value: p.id, label: `${p.name} (${p.code})` }),
};
const sponsorLookup: Lookup = { ...croLookup, query: { sponsor: true } };
const therapyAreaLookup: Lookup = {
  resource: "therapy-areas",
  pageSize: lookupPageSizes["therapy-areas"],
  option: (a) => ({ value: a.id, label: `${a.name} (${a.code})`, group: a.therapyCategoryName }),
};

/**
 * The internal code follows every change (spec §4): CRO, sponsor and therapy area codes and the
 * protocol number's last 3 characters. It waits for the lookups so a loaded code is not replaced
 * by question marks.
 */
function useInternalCode(form: FormApi<ProjectForm>) {
  const cros = useLookupRows<{ id: number; code: string }>(croLookup);
  const sponsors = useLookupRows<{ id: number; code: string }>(sponsorLookup);
  const areas = useLookupRows<{ id: number; code: string }>(therapyAreaLookup);
  const ready = cros.isSuccess && sponsors.isSuccess && areas.isSuccess;
  const code = ready
    ? projectInternalCodeOf(form.formData, [...(cros.data ?? []), ...(sponsors.data ?? [])], areas.data ?? [])
    : null;
  const { setValue } = form;
  useEffect(() => {
    if (code !== null && code !== form.formData.internalCode) setValue("internalCode", code);
  }, [code, form.formData.internalCode, setValue]);
}

/**
 * A finance number input: the form holds the number (or null), or the text as typed while it is
 * refused (a decimal in a whole-number field, a minus), with the reason shown at once and again
 * by the validator on save. Typing and pasting read the same (readFinanceInput).
 */
function NumberField({
  form,
  name,
  label,
  hint,
}: {
  form: FormApi<ProjectForm>;
  name: FinanceNumberField;
  label: string;
  hint?: string;
}) {
  const value = valueAt(form.formData, name) as number | string | null | undefined;
  // While typing "12." the text runs ahead of the number it stands for.
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? (value === null || value === undefined ? "" : String(value));
  const id = fieldId(name);
  const error = form.errors[name] ?? readFinanceInput(text, name).error ?? undefined;
  return (
    <Field id={id} label={label} hint={hint} error={error} className="max-w-sm">
      {(control) => (
        <Input
          {...control}
          inputMode={financeNumberFields[name].decimals > 0 ? "decimal" : "numeric"}
          autoComplete="off"
          className="max-w-40"
          invalid={Boolean(error)}
          value={text}
          onChange={(event) => {
            const read = readFinanceInput(event.target.value, name);
            setDraft(read.text);
            form.setValue(name, read.error ? read.text : read.value);
          }}
          onBlur={() => setDraft(null)}
        />
      )}
    </Field>
  );
}

const basicFields: FieldSpec[] = [
  { name: "workingName", label: "Working name", required: true },
  { name: "protocolNr", label: "Protocol number", required: true },
  {
    name: "internalCode",
    label: "Internal code",
    required: true,
    readOnly: true,
    hint: "CRO code + sponsor code + therapy area code + the last 3 characters of the protocol number",
  },
  {
    name: "projectStatusId",
    label: "Status",
    required: true,
    kind: "select",
    options: projectStatuses.map((s) => ({ value: s.value, label: s.label })),
  },
  { name: "siteIds", label: "Sites", required: true, kind: "multiselect", lookup: siteLookup },
  { name: "details.croId", label: "CRO", required: true, kind: "select", lookup: croLookup },
  { name: "details.sponsorId", label: "Sponsor", required: true, kind: "select", lookup: sponsorLookup },
  {
    name: "details.therapyAreaId",
    label: "Therapy area",
    required: true,
    kind: "select",
    lookup: therapyAreaLookup,
  },
  {
    name: "details.phase",
    label: "Phase",
    required: true,
    kind: "select",
    width: "small",
    options: phases.map((p) => ({ value: p.value, label: p.label })),
  },
];

const detailsFields: FieldSpec[] = [
  { name: "details.longName", label: "Long name" },
  { name: "details.officialTitle", label: "Official title", maxLength: 500 },
  { name: "details.officialUrl", label: "Official URL", maxLength: 500 },
  { name: "details.ipName", label: "IP name" },
];

const settingsFields: FieldSpec[] = [
  { name: "settings.rescreen", label: "Rescreen", kind: "checkbox" },
  { name: "settings.cohortHandling", label: "Cohort handling", kind: "checkbox" },
  { name: "settings.hospitalisation", label: "Hospitalisation", kind: "checkbox" },
];

/** A small select whose options read as their values (a currency, a VAT rate). */
const valueSelect = (
  name: string,
  label: string,
  values: readonly (string | number)[],
  hint?: string,
): FieldSpec => ({
  name,
  label,
  kind: "select",
  width: "small",
  hint,
  options: values.map((value) => ({ value, label: String(value) })),
});

/**
 * What each finance term means (issue 45, "Meaning of the stored terms"), under its field: the
 * earnings, statements and payments of the project are worked out from them.
 */
export const financeHelp = {
  settlementDays: "How often a statement is due, in days; the home page says when one is due.",
  paymentDays: "Days the sponsor has to pay: statement date + payment days = the statement's due date.",
  patientFee:
    "The fee for one patient who completes the plan. Each mandatory plan visit earns an equal share (the last one the rounding rest), unless the studyplan gives visits their own shares in percent.",
  currency: "Amounts are kept exactly in the currency's unit; HUF in whole forints.",
  vat: "Percent added to a statement's net.",
  paidPercentage:
    "The part of each earning payable during the study; the rest is held back until close-out. At most 100.",
  monitoredPercentage:
    "The share of patients to source-verify: a sampled patient's visit is billable only once verified.",
} as const;

const financeSelects = [
  valueSelect("finance.currency", "Currency", currencies, financeHelp.currency),
  valueSelect("finance.vat", "VAT (%)", vatOptions, financeHelp.vat),
];

/** A tab's accessible name: "Basic", or "Basic (8 errors)" while it has errors. */
const tabName = (name: ProjectTab, count: number) =>
  count === 0 ? name : `${name} (${count} ${count === 1 ? "error" : "errors"})`;

function ErrorBadge({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    // The tab's name carries the count for screen readers (tabName).
    <span
      aria-hidden="true"
      className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white"
    >
      {count}
    </span>
  );
}

/** The five tabs of the project editor, each with a red count badge of its errors. */
function ProjectTabs({ form, failedSaves }: { form: FormApi<ProjectForm>; failedSaves: number }) {
  const [tab, setTab] = useState<ProjectTab>("Basic");
  const counts = projectTabErrorCounts(form.errors);
  useInternalCode(form);

  // A refused save opens the first tab with an error, then puts the cursor on its first error.
  const errors = useRef(form.errors);
  errors.current = form.errors;
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (failedSaves === 0) return;
    const first = firstProjectTabWithError(errors.current);
    if (first) {
      setTab(first);
      setFocusRequest((n) => n + 1);
    }
  }, [failedSaves]);
  useEffect(() => {
    if (focusRequest === 0) return;
    const first = firstProjectTabWithError(errors.current);
    const field = Object.keys(errors.current).find((name) => projectFieldTab(name) === first);
    // The newly opened panel mounts its fields a render later (Radix Presence).
    const timer = setTimeout(() => field && document.getElementById(fieldId(field))?.focus());
    return () => clearTimeout(timer);
  }, [focusRequest]);

  const fields = (specs: FieldSpec[]) =>
    specs.map((spec) => <FormField key={spec.name} spec={spec} form={form} />);
  const panel = (value: ProjectTab, children: ReactNode) => (
    <Tabs.Content
      value={value}
      className="flex flex-col gap-4 pt-4 focus-visible:outline-2 focus-visible:outline-blue-600"
    >
      {children}
    </Tabs.Content>
  );

  return (
    <Tabs.Root value={tab} onValueChange={(value) => setTab(value as ProjectTab)}>
      <Tabs.List aria-label="Project" className="flex flex-wrap gap-1 border-b border-gray-200">
        {projectTabs.map((name) => (
          <Tabs.Trigger
            key={name}
            value={name}
            aria-label={tabName(name, counts[name])}
            className="-mb-px inline-flex items-center border-b-2 border-transparent px-3 py-2 text-sm font-medium text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-blue-600 data-[state=active]:border-blue-700 data-[state=active]:text-blue-800"
          >
            {name}
            <ErrorBadge count={counts[name]} />
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {panel("Basic", fields(basicFields))}
      {panel("Details", fields(detailsFields))}
      {panel("Settings", fields(settingsFields))}
      {panel(
        "Finance",
        <>
          <NumberField
            form={form}
            name="finance.settlementDays"
            label="Settlement days"
            hint={financeHelp.settlementDays}
          />
          <NumberField
            form={form}
            name="finance.paymentDays"
            label="Payment days"
            hint={financeHelp.paymentDays}
          />
          <NumberField
            form={form}
            name="finance.patientFee"
            label="Patient fee"
            hint={financeHelp.patientFee}
          />
          {fields(financeSelects)}
          <NumberField
            form={form}
            name="finance.paidPercentage"
            label="Paid percentage"
            hint={financeHelp.paidPercentage}
          />
          <NumberField
            form={form}
            name="finance.monitoredPercentage"
            label="Monitored percentage"
            hint={financeHelp.monitoredPercentage}
          />
        </>,
      )}
      {/* The Staff tab has no content (spec §2.5). */}
      {panel("Staff", null)}
    </Tabs.Root>
  );
}

const form: FormDescription<ProjectForm> = {
  resource: "projects",
  createTitle: "Add project",
  editTitle: "Edit project",
  savedText: "Project saved",
  saveErrorText: "Error during save",
  invalidBanner: "Please correct the errors!",
  fields: (form, { failedSaves }) => <ProjectTabs form={form} failedSaves={failedSaves} />,
};

/** The names of a project's sites, read from the sites lookup. */
function SiteNames({ ids }: { ids: number[] }) {
  const sites = useLookupRows(siteLookup, { select: (items) => items.map(siteLookup.option) });
  if (ids.length === 0) return "—";
  const labelOf = (id: number) => sites.data?.find((s) => s.value === id)?.label ?? String(id);
  return ids.map(labelOf).join(", ");
}

/**
 * What the project has earned and been paid (issue 45), read-only: an administrator's at all its
 * sites, staff's at the active site.
 */
function ProjectFinance({ projectId }: { projectId: number }) {
  const { user } = useSession();
  const { site } = useActiveSite();
  const admin = Boolean(user?.isAdmin);
  if (!admin && !site) return null;
  return (
    <FinanceTotals
      title={admin ? "Finance, all sites" : `Finance at ${site?.code}`}
      projectId={projectId}
      siteId={admin ? null : site?.id}
      shown={["earned", "heldBack", "billed", "received", "open"]}
    />
  );
}

const detail: DetailDescription<ProjectView> = {
  resource: "projects",
  rows: [
    { label: "Working name", value: (p) => show(p.workingName) },
    { label: "Protocol number", value: (p) => show(p.protocolNr) },
    { label: "Internal code", value: (p) => show(p.internalCode) },
    { label: "Status", value: (p) => show(statusLabel(p.projectStatusId)) },
    { label: "Sites", value: (p) => <SiteNames ids={p.siteIds ?? []} /> },
    { label: "CRO", value: (p) => show(p.croName) },
    { label: "Sponsor", value: (p) => show(p.sponsorName) },
    { label: "Therapy area", value: (p) => show(p.therapyAreaName) },
    { label: "Phase", value: (p) => show(phaseLabel(p.details.phase)) },
    { label: "Long name", value: (p) => show(p.details.longName) },
    { label: "Official title", value: (p) => show(p.details.officialTitle) },
    { label: "Official URL", value: (p) => show(p.details.officialUrl) },
    { label: "IP name", value: (p) => show(p.details.ipName) },
    { label: "Rescreen", value: (p) => yesNo(p.settings.rescreen) },
    { label: "Cohort handling", value: (p) => yesNo(p.settings.cohortHandling) },
    { label: "Hospitalisation", value: (p) => yesNo(p.settings.hospitalisation) },
    { label: "Settlement days", value: (p) => show(p.finance.settlementDays) },
    { label: "Payment days", value: (p) => show(p.finance.paymentDays) },
    { label: "Patient fee", value: (p) => show(p.finance.patientFee) },
    { label: "Currency", value: (p) => show(p.finance.currency) },
    { label: "VAT (%)", value: (p) => show(p.finance.vat) },
    { label: "Paid percentage", value: (p) => show(p.finance.paidPercentage) },
    { label: "Monitored percentage", value: (p) => show(p.finance.monitoredPercentage) },
  ],
  after: (project) => <ProjectFinance projectId={project.id} />,
};

export const List = () => <ListScreen description={list} />;
export const Form = () => <FormScreen description={form} />;
export const Detail = () => <DetailScreen description={detail} />;
