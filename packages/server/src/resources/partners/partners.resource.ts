import { normalizePartner, partnerSchema, validatePartnerForSave } from "@trialdesk/domain";
import { eq } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { defineResource, type Filter } from "../resource";
import { partners } from "./partners.table";

/** `cro=true` / `sponsor=true` narrow the lookup for the project's CRO and Sponsor selects. */
const flagFilter = (column: PgColumn): Filter => ({
  schema: z.enum(["true", "false"], { error: "Must be true or false" }),
  where: (value: "true" | "false") => eq(column, value === "true"),
});

export const partnersResource = defineResource({
  name: "partners",
  label: "Partner",
  table: partners,
  schema: partnerSchema,
  normalize: normalizePartner,
  validate: validatePartnerForSave,
  sort: { id: partners.id, name: partners.name, code: partners.code },
  search: [partners.name, partners.code],
  filters: { cro: flagFilter(partners.cro), sponsor: flagFilter(partners.sponsor) },
  access: { write: "admin" },
  // The list's Type column: its CRO and Sponsor badges in words.
  exportText: {
    type: (row) => [row.cro && "CRO", row.sponsor && "Sponsor"].filter(Boolean).join(", "),
  },
});
