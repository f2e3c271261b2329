import { isNewRecord, type Monitor, type MonitorInput } from "@trialdesk/domain";
import { type DetailDescription, DetailScreen } from "../../screens/DetailScreen";
import { type FieldSpec, FormField } from "../../screens/FormFields";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { passwordFields } from "../users/user-screens";

/** Monitors (spec §2.5, §3, §5): study monitors on record, administrators only; they do not sign in here. */
const list: ListDescription<Monitor> = {
  resource: "monitors",
  columns: [
    { key: "id", title: "ID", sortable: true, className: "w-20" },
    { key: "name", title: "Name", sortable: true, format: (m) => `${m.firstName} ${m.lastName}` },
    { key: "email", title: "Email", sortable: true },
  ],
  describe: (m) => `${m.firstName} ${m.lastName}`,
};

const fields = (isNew: boolean): FieldSpec[] => [
  { name: "email", label: "Email", type: "email", required: true },
  { name: "firstName", label: "First name", required: true },
  { name: "lastName", label: "Last name", required: true },
  ...passwordFields(isNew),
  { name: "isActive", label: "Is active", kind: "checkbox" },
];

const form: FormDescription<Partial<MonitorInput>> = {
  resource: "monitors",
  fields: (state) => (
    <>
      {fields(isNewRecord(state.formData)).map((spec) => (
        <FormField key={spec.name} spec={spec} form={state} />
      ))}
    </>
  ),
};

const detail: DetailDescription<Monitor> = {
  resource: "monitors",
  idLabel: "ID",
  uuidLabel: "UUID",
  rows: [
    { label: "Email", value: (m) => m.email },
    { label: "First name", value: (m) => m.firstName },
    { label: "Last name", value: (m) => m.lastName },
    { label: "Is active", value: (m) => (m.isActive ? "Yes" : "No") },
  ],
};

export const List = () => <ListScreen description={list} />;
export const Form = () => <FormScreen description={form} />;
export const Detail = () => <DetailScreen description={detail} />;
