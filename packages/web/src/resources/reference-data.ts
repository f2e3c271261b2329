import type { FieldSpec } from "../screens/FormFields";
import type { Column } from "../screens/ListScreen";

/**
 * What the reference data named and coded alike shows the same way. The lists of therapy categories,
 * therapy areas and partners start with these columns.
 */
export const codedColumns: Column[] = [
  { key: "id", title: "ID", sortable: true, className: "w-20" },
  { key: "name", title: "Name", sortable: true },
  { key: "code", title: "Code", sortable: true, className: "w-24" },
];

/** Their forms' required name (the sites' too). */
export const nameField: FieldSpec = { name: "name", label: "Name", required: true };

/** Their forms' short unique code (the sites' too); the hint says how long it may be. */
export const codeField = (hint: string): FieldSpec => ({
  name: "code",
  label: "Code",
  required: true,
  width: "small",
  hint,
});
