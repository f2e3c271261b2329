import { flagFilter } from "../params";
import { defineResource } from "../resource";
import { partners } from "./partners.table";

export const partnersResource = defineResource({
  name: "partners",
  table: partners,
  sort: { id: partners.id, name: partners.name, code: partners.code },
  search: [partners.name, partners.code],
  filters: { cro: flagFilter(partners.cro), sponsor: flagFilter(partners.sponsor) },
  // The list's Type column: its CRO and Sponsor badges in words.
  exportText: {
    type: (row) => [row.cro && "CRO", row.sponsor && "Sponsor"].filter(Boolean).join(", "),
  },
});
