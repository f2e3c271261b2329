import {
  lookupPageSizes,
  optionLabel,
  projectStatuses,
  type Study,
  type StudyInput,
  studyVariants,
  studyWorkingName,
} from "@trialdesk/domain";
import { Link } from "react-router";
import { useLookupRows } from "../../api/queries";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { type FieldSpec, FormField, type Lookup } from "../../screens/FormFields";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, ListScreen, type Row } from "../../screens/ListScreen";
import type { FormApi } from "../../screens/useFormState";

type StudyForm = Partial<StudyInput>;
type ProjectOption = { id: number; uuid: string; workingName: string; protocolNr: string };

/** Studies (spec §2.5, §3, §4 Automatic values, §5). */
const list: ListDescription<Study> = {
  resource: "studies",
  columns: [
    { key: "id", title: "Id", sortable: true, className: "w-20" },
    { key: "workingName", title: "Working name", sortable: true },
    { key: "variant", title: "Variant", sortable: true },
    { key: "fpfv", title: "FPFV", sortable: true, className: "w-32" },
    { key: "lpfv", title: "LPFV", sortable: true, className: "w-32" },
    { key: "lplv", title: "LPLV", sortable: true, className: "w-32" },
  ],
  options: { remove: true },
  describe: (study) => study.workingName,
};

/** The project select reads the projects' option view (spec §7: page 1, size 250). */
const projectLookup: Lookup = {
  resource: "projects",
  pageSize: lookupPageSizes.projects,
  query: { format: "option-view" },
  option: (project: Row) => ({ value: project.id, label: `${project.workingName} (${project.protocolNr})` }),
};

const fields: FieldSpec[] = [
  { name: "projectId", label: "Project", required: true, kind: "select", lookup: projectLookup },
  {
    name: "variant",
    label: "Variant",
    required: true,
    kind: "select",
    options: studyVariants.map((variant) => ({ value: variant, label: variant })),
  },
  { name: "workingName", label: "Working name", required: true },
  { name: "fpfv", label: "FPFV", required: true, kind: "date" },
  { name: "lpfv", label: "LPFV", required: true, kind: "date" },
  { name: "lplv", label: "LPLV", required: true, kind: "date" },
  {
    name: "projectStatusId",
    label: "Status",
    required: true,
    kind: "select",
    options: projectStatuses.map((s) => ({ value: s.value, label: s.label })),
  },
];

/**
 * The study fields; choosing a project or a variant sets the working name to the project's protocol
 * number + "_" + the variant (spec §4), unless the name was typed (issue 46): a name other than the
 * one the previous project and variant gave is the user's and stays (decision 237). The projects
 * come from the same cached lookup as the select.
 */
function StudyFields({ form }: { form: FormApi<StudyForm> }) {
  const projects = useLookupRows<ProjectOption>(projectLookup);
  const protocolNrOf = (projectId: unknown) => projects.data?.find((p) => p.id === projectId)?.protocolNr;
  const proposed = (data: StudyForm) => studyWorkingName(protocolNrOf(data.projectId), data.variant);
  const studyForm: FormApi<StudyForm> = {
    ...form,
    setValue: (path, value) => {
      const before = form.formData;
      form.setValue(path, value);
      if (path !== "projectId" && path !== "variant") return;
      const current = before.workingName?.trim() ?? "";
      const typed = current !== "" && current !== proposed(before);
      if (!typed) form.setValue("workingName", proposed({ ...before, [path]: value }));
    },
  };
  return (
    <div className="grid max-w-2xl gap-4 sm:grid-cols-2">
      {fields.map((spec) => (
        <FormField key={spec.name} spec={spec} form={studyForm} />
      ))}
    </div>
  );
}

const form: FormDescription<StudyForm> = {
  resource: "studies",
  fields: (form) => <StudyFields form={form} />,
};

const detail: DetailDescription<Study> = {
  resource: "studies",
  rows: [
    { label: "Project", value: (s) => show(s.projectWorkingName) },
    { label: "Protocol", value: (s) => show(s.protocolNr) },
    { label: "Internal code", value: (s) => show(s.projectInternalCode) },
    { label: "Variant", value: (s) => show(s.variant) },
    { label: "Working name", value: (s) => show(s.workingName) },
    { label: "FPFV", value: (s) => show(s.fpfv) },
    { label: "LPFV", value: (s) => show(s.lpfv) },
    { label: "LPLV", value: (s) => show(s.lplv) },
    { label: "Status", value: (s) => show(optionLabel(projectStatuses, s.projectStatusId as never)) },
    // Each study's grid of patient visits (issue 12).
    {
      label: "Visit summary",
      value: (s) => (
        <Link to={`/visit-summary/${s.uuid}`} className="text-blue-700 underline hover:text-blue-900">
          Open the visit summary
        </Link>
      ),
    },
  ],
};

export const List = () => <ListScreen description={list} />;
export const Form = () => <FormScreen description={form} />;
export const Detail = () => <DetailScreen description={detail} />;
