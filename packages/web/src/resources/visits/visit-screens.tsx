import {
  isVisitTypeDisabled,
  lookupPageSizes,
  randomisationVisitType,
  type StudyOption,
  type StudyVisitRow,
  type Visit,
  type VisitInput,
  visitInUseMessage,
  visitTypes,
} from "@trialdesk/domain";
import { Check } from "lucide-react";
import { useLookupRows } from "../../api/queries";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { type FieldSpec, FormField, type Lookup } from "../../screens/FormFields";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, ListScreen, type Row } from "../../screens/ListScreen";
import type { FormApi } from "../../screens/useFormState";

type VisitForm = Partial<VisitInput>;

/** A visit type as the spec lists it: "50 Randomisation". */
const typeLabel = (value: number, label: string) => `${value} ${label}`;
const visitTypeText = (visit: Pick<Visit, "visitTypeId" | "visitType">) =>
  visit.visitTypeId ? typeLabel(visit.visitTypeId, visit.visitType ?? "") : "—";

/** Visit definitions (spec §2.5, §3, §4 Visit form, §5, §9). */
const list: ListDescription<Visit & { visitName: string }> = {
  resource: "visits",
  columns: [
    { key: "id", title: "Id", sortable: true, className: "w-20" },
    { key: "studyName", title: "Study", sortable: true },
    { key: "visitName", title: "Visit", sortable: true },
    { key: "visitTypeId", title: "Type", sortable: true, format: visitTypeText },
    {
      key: "mandatory",
      title: "Mandatory",
      sortable: true,
      className: "w-28 text-center",
      format: (visit) =>
        visit.mandatory === 1 ? (
          <Check role="img" aria-label="Mandatory" className="mx-auto size-4 text-green-700" />
        ) : null,
    },
  ],
  options: { remove: true },
  describe: (visit) => `${visit.visitName} (${visit.studyName})`,
};

/** The study select reads the studies' option view (spec §7: page 1, size 250). */
const studyLookup: Lookup = {
  resource: "studies",
  pageSize: lookupPageSizes.studiesOptionView,
  query: { format: "option-view" },
  option: (study: Row) => ({ value: study.id, label: study.workingName }),
};

const nameField: FieldSpec = { name: "name", label: "Visit name", required: true };
const mandatoryField: FieldSpec = { name: "mandatory", label: "Mandatory", kind: "checkbox" };

/**
 * The visit fields. Randomisation (type 50) is offered only while the chosen study has none other
 * than the visit being edited (spec §4): the study's visits decide, and until they are loaded the
 * study's hasRandomVisit flag does.
 */
function VisitFields({ form }: { form: FormApi<VisitForm> }) {
  const studies = useLookupRows<StudyOption>(studyLookup);
  const study = studies.data?.find((s) => s.id === form.formData.studyId);
  const studyVisits = useLookupRows<StudyVisitRow>(
    { resource: `studies/${study?.uuid}/visits`, pageSize: lookupPageSizes.visits },
    { enabled: Boolean(study) },
  );
  const editedId = (form.formData.id as number | undefined) ?? null;
  const randomisationTaken = studyVisits.data
    ? isVisitTypeDisabled(randomisationVisitType, studyVisits.data, editedId)
    : Boolean(
        study?.hasRandomVisit &&
          !(
            form.originalData.studyId === study.id && form.originalData.visitTypeId === randomisationVisitType
          ),
      );
  // A visit recorded for patients or planned keeps its study (decision 152): said before Save.
  const kept = (form.originalData as Partial<Visit>).inUse === true;
  const studyField: FieldSpec = {
    name: "studyId",
    label: "Study",
    required: true,
    kind: "select",
    lookup: studyLookup,
    readOnly: kept,
    hint: kept ? visitInUseMessage : undefined,
  };
  const typeField: FieldSpec = {
    name: "visitTypeId",
    label: "Visit type",
    required: true,
    kind: "select",
    options: visitTypes.map((t) => ({
      value: t.value,
      label: typeLabel(t.value, t.label),
      disabled: t.value === randomisationVisitType && randomisationTaken,
    })),
    hint: randomisationTaken ? "This study already has its randomisation visit (type 50)." : undefined,
  };
  return (
    <div className="grid max-w-2xl gap-4">
      {[studyField, typeField, nameField].map((spec) => (
        <FormField key={spec.name} spec={spec} form={form} />
      ))}
      <FormField
        spec={mandatoryField}
        form={{
          ...form,
          // The wire carries mandatory as 0 or 1 (spec §3); the checkbox works with true and false.
          formData: { ...form.formData, mandatory: form.formData.mandatory === 1 } as never,
          setValue: (path, value) => form.setValue(path, value === true ? 1 : 0),
        }}
      />
    </div>
  );
}

const form: FormDescription<VisitForm> = {
  resource: "visits",
  fields: (form) => <VisitFields form={form} />,
};

const detail: DetailDescription<Visit> = {
  resource: "visits",
  rows: [
    { label: "Visit name", value: (v) => show(v.name) },
    { label: "Visit type", value: visitTypeText },
    { label: "Study", value: (v) => show(v.studyName) },
    { label: "Protocol", value: (v) => show(v.protocolNr) },
    { label: "Mandatory", value: (v) => (v.mandatory === 1 ? "Yes" : "No") },
  ],
};

export const List = () => <ListScreen description={list} />;
export const Form = () => <FormScreen description={form} />;
export const Detail = () => <DetailScreen description={detail} />;
