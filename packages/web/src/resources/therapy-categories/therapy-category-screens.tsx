import type { TherapyCategory, TherapyCategoryInput } from "@trialdesk/domain";
import { type DetailDescription, DetailScreen } from "../../screens/DetailScreen";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { codedColumns, codeField, nameField } from "../reference-data";

/** Therapy categories (spec §2.5, §5). */
const list: ListDescription<TherapyCategory> = {
  resource: "therapy-categories",
  pageSize: 10,
  columns: codedColumns,
  options: { remove: true },
};

const form: FormDescription<Partial<TherapyCategoryInput>> = {
  resource: "therapy-categories",
  fields: [nameField, codeField("2 or 3 characters, unique")],
};

const detail: DetailDescription<TherapyCategory> = {
  resource: "therapy-categories",
  rows: [
    { label: "Name", value: (item) => item.name },
    { label: "Code", value: (item) => item.code },
  ],
};

export const List = () => <ListScreen description={list} />;
export const Form = () => <FormScreen description={form} />;
export const Detail = () => <DetailScreen description={detail} />;
