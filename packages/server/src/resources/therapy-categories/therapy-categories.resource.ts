import { normalizeTherapyCategory, therapyCategorySchema, validateTherapyCategory } from "@trialdesk/domain";
import { defineResource } from "../resource";
import { therapyCategories } from "./therapy-categories.table";

export const therapyCategoriesResource = defineResource({
  name: "therapy-categories",
  table: therapyCategories,
  schema: therapyCategorySchema,
  normalize: normalizeTherapyCategory,
  validate: validateTherapyCategory,
  sort: { id: therapyCategories.id, name: therapyCategories.name, code: therapyCategories.code },
  search: [therapyCategories.name, therapyCategories.code],
});
