import { lookupPageSizes, type TherapyArea, type TherapyAreaInput } from "@trialdesk/domain";
import { type DetailDescription, DetailScreen } from "../../screens/DetailScreen";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { codedColumns, codeField, nameField } from "../reference-data";

/** Therapy areas (spec §2.5, §5). */
const list: ListDescription<TherapyArea> = {
  resource: "therapy-areas",
  columns: [...codedColumns, { key: "therapyCategoryName", title: "Category name", sortable: true }],
  options: { remove: true },
};

const form: FormDescription<Partial<TherapyAreaInput>> = {
  resource: "therapy-areas",
  fields: [
    nameField,
    codeField("2 or 3 characters, unique"),
    {
      name: "therapyCategoryId",
      label: "Therapy Category",
      required: true,
      kind: "select",
      lookup: {
        resource: "therapy-categories",
        pageSize: lookupPageSizes["therapy-categories"],
        option: (category) => ({ value: category.id, label: category.name }),
      },
    },
  ],
};

const detail: DetailDescription<TherapyArea> = {
  resource: "therapy-areas",
  idLabel: "ID",
  rows: [
    { label: "Name", value: (item) => item.name },
    { label: "Code", value: (item) => item.code },
    {
      label: "Category",
      value: (item) =>
        item.therapyCategoryId ? `${item.therapyCategoryName} (${item.therapyCategoryId})` : "—",
    },
  ],
};

export const List = () => <ListScreen description={list} />;
export const Form = () => <FormScreen description={form} />;
export const Detail = () => <DetailScreen description={detail} />;
