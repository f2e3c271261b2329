import { useQuery } from "@tanstack/react-query";
import {
  lookupPageSizes,
  type MonitorAssignment,
  type MonitorAssignmentInput,
  notesMaxLength,
  type Project,
  type Study,
} from "@trialdesk/domain";
import { api } from "../../api/client";
import { queryKeys, useLookupRows } from "../../api/queries";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { type FieldSpec, FormField, fieldId, type Lookup } from "../../screens/FormFields";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, type ListFilter, ListScreen, type Row } from "../../screens/ListScreen";
import type { FormApi } from "../../screens/useFormState";
import { Badge } from "../../ui/badge";
import { Field } from "../../ui/field";
import { MultiSelect } from "../../ui/multi-select";
import { siteLookup } from "../sites/site-lookup";

/**
 * Monitor assignments (issue 44): which study a sponsor's monitor may read, at which of its project's
 * sites (none chosen: every one) and from when to when (both days included). Administrators only.
 */

/** The monitors, by name; an inactive one says so (they sign in nowhere). */
const monitorLookup: Lookup = {
  resource: "monitors",
  pageSize: 250,
  query: { order: "name", direction: "asc" },
  option: (m: Row) => ({
    value: m.id,
    label: `${m.firstName} ${m.lastName}${m.isActive === false ? " (inactive)" : ""}`,
  }),
  selected: (data: Row) =>
    data.monitorId && data.monitorName ? { value: data.monitorId, label: data.monitorName } : null,
};

/** The studies, by working name (as the deviations' and the visit summary's pickers). */
const studyLookup: Lookup = {
  resource: "studies",
  pageSize: lookupPageSizes.studies,
  query: { order: "workingName", direction: "asc" },
  option: (study: Row) => ({ value: study.id, label: study.workingName }),
  selected: (data: Row) =>
    data.studyId && data.studyName ? { value: data.studyId, label: data.studyName } : null,
};

const filters: ListFilter[] = [
  { param: "monitorId", label: "Monitor", lookup: monitorLookup },
  { param: "studyId", label: "Study", lookup: studyLookup },
];

export const everySite = "Every site";
export const sitesHint = "None chosen: every site of the study's project";

type SiteRow = { id: number; code: string; shortName: string };

/** The sites by id, from the sites' lookup (one request, shared with the form's Sites). */
function useSites(enabled: boolean) {
  return useLookupRows<SiteRow>(siteLookup, { enabled });
}

/** An assignment's sites by code (the list), or "Every site" when it names none. */
function SiteCodes({ ids }: { ids: number[] }) {
  const sites = useSites(ids.length > 0);
  if (ids.length === 0) return <>{everySite}</>;
  const codeOf = (id: number) => sites.data?.find((s) => s.id === id)?.code ?? String(id);
  return <>{ids.map(codeOf).join(", ")}</>;
}

/** An assignment's sites by code and short name (the detail and its history). */
function SiteNames({ ids }: { ids: number[] }) {
  const sites = useSites(ids.length > 0);
  if (ids.length === 0) return <>{`${everySite} of the study's project`}</>;
  const labelOf = (id: number) => {
    const site = sites.data?.find((s) => s.id === id);
    return site ? siteLookup.option(site).label : String(id);
  };
  return <>{ids.map(labelOf).join(", ")}</>;
}

const CurrentBadge = ({ current }: { current: boolean | null | undefined }) =>
  current ? <Badge color="green">Yes</Badge> : <Badge color="gray">No</Badge>;

const describe = (a: MonitorAssignment) => `${a.monitorName ?? "Monitor"} for ${a.studyName ?? "study"}`;

const list: ListDescription<MonitorAssignment> = {
  resource: "monitor-assignments",
  filters,
  columns: [
    { key: "monitorName", title: "Monitor", sortable: true },
    { key: "studyName", title: "Study", sortable: true },
    { key: "siteIds", title: "Sites", format: (a) => <SiteCodes ids={a.siteIds ?? []} /> },
    { key: "accessFrom", title: "Access from", sortable: true, className: "whitespace-nowrap" },
    { key: "accessTo", title: "Access to", sortable: true, className: "whitespace-nowrap" },
    { key: "current", title: "Current", format: (a) => <CurrentBadge current={a.current} /> },
  ],
  describe,
};

type AssignmentForm = Partial<MonitorAssignmentInput>;

/**
 * The sites of the chosen study's project (the only ones the server takes): the study, then its
 * project. Null when they cannot be known (a failed read), so every site is offered rather than none.
 */
function useProjectSiteIds(studyId: number | null | undefined): {
  ids: Set<number> | null;
  pending: boolean;
} {
  const study = useQuery({
    queryKey: queryKeys.detail("studies", String(studyId)),
    queryFn: () => api.get<Study>(`studies/${studyId}`),
    enabled: Boolean(studyId),
  });
  const projectId = study.data?.projectId;
  const project = useQuery({
    queryKey: queryKeys.detail("projects", String(projectId)),
    queryFn: () => api.get<Project>(`projects/${projectId}`),
    enabled: Boolean(projectId),
  });
  return {
    ids: project.data ? new Set(project.data.siteIds ?? []) : null,
    pending: Boolean(studyId) && (study.isPending || (Boolean(projectId) && project.isPending)),
  };
}

/** The Sites multi-select: the study's project's sites, by code and short name. */
function SitesField({ form }: { form: FormApi<AssignmentForm> }) {
  const { studyId, siteIds } = form.formData;
  const sites = useSites(true);
  const ofProject = useProjectSiteIds(studyId);
  // A site already chosen stays named (and removable) even when the project no longer has it.
  const chosen = new Set(siteIds ?? []);
  const options = (sites.data ?? [])
    .filter((site) => !ofProject.ids || ofProject.ids.has(site.id) || chosen.has(site.id))
    .map(siteLookup.option);
  return (
    <Field id={fieldId("siteIds")} label="Sites" hint={sitesHint} error={form.errors.siteIds}>
      {(control) => (
        <MultiSelect
          {...control}
          options={options}
          loading={sites.isPending || ofProject.pending}
          disabled={!studyId}
          value={siteIds ?? []}
          onChange={(value) => form.setValue("siteIds", value)}
          placeholder={studyId ? everySite : "Select a study first"}
          emptyText="No item found"
        />
      )}
    </Field>
  );
}

function AssignmentFields({ form }: { form: FormApi<AssignmentForm> }) {
  const field = (spec: FieldSpec, target: FormApi<AssignmentForm> = form) => (
    <FormField key={spec.name} spec={spec} form={target} />
  );
  // Another study has other sites: the ones chosen for the previous study go.
  const studyForm = {
    ...form,
    setValue: (_: string, value: unknown) =>
      form.setFormData({ ...form.formData, studyId: value as number | null, siteIds: [] }),
  };
  return (
    <div className="grid max-w-3xl grid-cols-1 gap-4 md:grid-cols-2">
      {field({
        name: "monitorId",
        label: "Monitor",
        required: true,
        kind: "select",
        placeholder: "Please select ...",
        emptyText: "No item found",
        lookup: monitorLookup,
      })}
      {field(
        {
          name: "studyId",
          label: "Study",
          required: true,
          kind: "select",
          placeholder: "Type to select a study ...",
          emptyText: "No item found",
          lookup: studyLookup,
        },
        studyForm,
      )}
      <div className="md:col-span-2">
        <SitesField form={form} />
      </div>
      {field({ name: "accessFrom", label: "Access from", required: true, kind: "date" })}
      {field({
        name: "accessTo",
        label: "Access to",
        required: true,
        kind: "date",
        hint: "The last day of access, included",
      })}
      <div className="md:col-span-2">
        {field({ name: "notes", label: "Notes", kind: "textarea", maxLength: notesMaxLength, width: "full" })}
      </div>
    </div>
  );
}

const form: FormDescription<AssignmentForm> = {
  resource: "monitor-assignments",
  createTitle: "New monitor assignment",
  errorBar: true,
  fields: (state) => <AssignmentFields form={state} />,
};

const detail: DetailDescription<MonitorAssignment> = {
  resource: "monitor-assignments",
  rows: [
    { label: "Monitor", value: (a) => show(a.monitorName) },
    { label: "Study", value: (a) => show(a.studyName) },
    { label: "Sites", value: (a) => <SiteNames ids={a.siteIds ?? []} /> },
    { label: "Access from", value: (a) => show(a.accessFrom) },
    { label: "Access to", value: (a) => show(a.accessTo) },
    { label: "Current", value: (a) => (a.current ? "Yes" : "No") },
    { label: "Notes", value: (a) => show(a.notes) },
  ],
};

export const List = () => <ListScreen description={list} />;
export const Form = () => <FormScreen description={form} />;
export const Detail = () => <DetailScreen description={detail} />;
