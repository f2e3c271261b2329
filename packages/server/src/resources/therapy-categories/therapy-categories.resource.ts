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
  formats: {
    view: {
      fields: {
        id: therapyCategories.id,
        uuid: therapyCategories.uuid,
        version: therapyCategories.version,
        name: therapyCategories.name,
        code: therapyCategories.code,
      },
    },
  },
  unique: { therapy_categories_code_unique: { field: "code", message: "Code must be unique" } },
});
