import { eq } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { Filter } from "./resource-definition";

/** The largest id the database's integer columns hold. */
export const maxId = 2_147_483_647;

/** An id in a query string: a positive whole number the database can hold; `message` for anything else. */
export const idParam = (message = "Must be a number") =>
  z.coerce.number({ error: message }).int(message).positive(message).max(maxId, message);

/** "true" or "false" in a query string. */
export const booleanParam = z.enum(["true", "false"], { error: "Must be true or false" });

/** `column=true` / `column=false` on a boolean column. */
export const flagFilter = (column: PgColumn): Filter => ({
  schema: booleanParam,
  where: (value: "true" | "false") => eq(column, value === "true"),
});

/** `column=VALUE` on a column holding one of a domain list's values (an unknown one answers 400). */
export const oneOfFilter = (
  column: PgColumn,
  options: readonly { value: string; label: string }[],
  name: string,
): Filter => ({
  schema: z.enum(options.map((o) => o.value) as [string, ...string[]], {
    error: `${name} must be one of: ${options.map((o) => o.value).join(", ")}`,
  }),
  where: (value: string) => eq(column, value),
});
