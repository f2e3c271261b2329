import { defineResource } from "../resource";
import { therapyCategories } from "./therapy-categories.table";

export const therapyCategoriesResource = defineResource({
  name: "therapy-categories",
  table: therapyCategories,
  sort: { id: therapyCategories.id, name: therapyCategories.name, code: therapyCategories.code },
  search: [therapyCategories.name, therapyCategories.code],
});
