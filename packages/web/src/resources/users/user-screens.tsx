import {
  displayName,
  isNewRecord,
  passwordInputMaxLength,
  type User,
  type UserInput,
} from "@trialdesk/domain";
import { format } from "date-fns";
import { useLookupRows } from "../../api/queries";
import { type DetailDescription, DetailScreen } from "../../screens/DetailScreen";
import { type FieldSpec, FormField } from "../../screens/FormFields";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { siteLookup } from "../sites/site-lookup";

/** Users (spec §2.5, §3, §5): administrators only. */
const list: ListDescription<User> = {
  resource: "users",
  columns: [
    { key: "id", title: "Id", sortable: true, className: "w-20" },
    { key: "email", title: "Email", sortable: true },
    { key: "name", title: "Name", sortable: true, format: (user) => displayName(user) },
  ],
  describe: (user) => displayName(user) || user.email,
};

type Form = Partial<UserInput>;

/** A password is required for a new user or monitor; on edit it is optional and sets a new one. */
export const passwordFields = (isNew: boolean): FieldSpec[] => [
  {
    name: "password",
    label: "Password",
    type: "password",
    maxLength: passwordInputMaxLength,
    required: isNew,
    hint: isNew ? "At least 8 characters" : "Leave empty to keep the current password",
  },
  {
    name: "password2",
    label: "Password confirmation",
    type: "password",
    maxLength: passwordInputMaxLength,
    required: isNew,
  },
];

const fields: FieldSpec[] = [
  { name: "email", label: "Email", type: "email", required: true },
  { name: "profile.firstName", label: "First name", required: true },
  { name: "profile.lastName", label: "Last name", required: true },
  { name: "siteIds", label: "Sites", kind: "multiselect", lookup: siteLookup, emptyText: "No item found" },
  { name: "isAdmin", label: "Administrator", kind: "checkbox" },
  { name: "isActive", label: "Is active", kind: "checkbox" },
];

const form: FormDescription<Form> = {
  resource: "users",
  fields: (state) => (
    <>
      {[...fields, ...passwordFields(isNewRecord(state.formData))].map((spec) => (
        <FormField key={spec.name} spec={spec} form={state} />
      ))}
    </>
  ),
};

const yesNo = (value: boolean) => (value ? "Yes" : "No");

/** The Password row: whether one is set and when it last changed, never a value or hash. */
export function passwordState(user: Pick<User, "hasPassword" | "lastPasswordChangeDate">): string {
  if (!user.hasPassword) return "Not set";
  return user.lastPasswordChangeDate
    ? `Set, last changed ${format(new Date(user.lastPasswordChangeDate), "yyyy-MM-dd")}`
    : "Set";
}

/** The user's sites by their code and short name (the same lookup the form uses). */
function SiteNames({ ids }: { ids: number[] }) {
  const sites = useLookupRows(siteLookup, {
    select: (items) => items.map(siteLookup.option),
    enabled: ids.length > 0,
  });
  if (ids.length === 0) return <>—</>;
  const labelOf = (id: number) => sites.data?.find((s) => s.value === id)?.label ?? String(id);
  return <>{ids.map(labelOf).join(", ")}</>;
}

const detail: DetailDescription<User> = {
  resource: "users",
  rows: [
    { label: "Email", value: (user) => user.email },
    { label: "Password", value: passwordState },
    { label: "Name", value: (user) => displayName(user) },
    { label: "Sites", value: (user) => <SiteNames ids={user.siteIds ?? []} /> },
    { label: "Is active", value: (user) => yesNo(user.isActive) },
    { label: "Administrator", value: (user) => yesNo(user.isAdmin) },
  ],
};

export const List = () => <ListScreen description={list} />;
export const Form = () => <FormScreen description={form} />;
export const Detail = () => <DetailScreen description={detail} />;
