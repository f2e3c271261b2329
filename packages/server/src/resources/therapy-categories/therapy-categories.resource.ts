import { normalizeTherapyCategory, therapyCategorySchema, validateTherapyCategory } from "@trialdesk/domain";
import { defineResource } from "../resource";
import { therapyCategories } from "./therapy-categories.table";

export const therapyCategoriesResource = defineResource({
  name: "therapy-categories",
  label: "Therapy category",
  table: therapyCategories,
  schema: therapyCategorySchema,
  normalize: normalizeTherapyCategory,
  validate: validateTherapyCategory,
  sort: { id: therapyCategories.id, name: therapyCategories.name, code: therapyCategories.code },
  search: [therapyCategories.name, therapyCategories.code],
  // The detail page is public (spec §2.1).
  access: { get: "public", write: "admin" },
});
