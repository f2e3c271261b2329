import { Column, is, SQL, type Table } from "drizzle-orm";
import { z } from "zod";

/**
 * Response schemas for the OpenAPI document (issue 16 part 7), so clients can be generated from it.
 * They describe; they never check or shape an answer (see registerOpenApi's serializer): the
 * envelope and the resource formats stay what the handlers send.
 */

const header = z.object({
  result: z.enum(["success", "error"]),
  errorMessage: z.string().nullable(),
  errorCode: z.string().nullable(),
  errorDetail: z.string().nullable(),
  fieldErrors: z.array(z.object({ field: z.string(), message: z.string() })),
  requestId: z.string(),
});

/** The spec's envelope (§3) around `data`. */
export const envelope = (data: z.ZodType) => z.object({ header, data });

/** Every refusal: 400 with field errors, 401, 403, 404, 409, 429, 503 — the envelope with no data. */
const failure = envelope(z.null()).describe("An error: header.errorMessage says why, data is null");

/** A route's answers: `data` inside the envelope with `status`, and the error envelope. */
export const answers = (data: z.ZodType, status = 200) => ({ [status]: envelope(data), "4xx": failure });

const pagination = z.object({ page: z.number(), pageSize: z.number(), total: z.number() });

/** A list page: the records in the list's format and the pager's numbers; `more` for extra parts. */
export const listPage = (item: z.ZodType, more: Record<string, z.ZodType> = {}) =>
  z.object({ items: z.array(item), pagination, ...more });

/** A CSV download (the exports). */
export const csvAnswer = {
  200: { description: "CSV, UTF-8 with a BOM", content: { "text/csv": { schema: z.string() } } },
};

export const day = z.string().describe("yyyy-MM-dd");

/** A JSON value as one column gives it: its type, null where the column or its outer join allows. */
function columnSchema(column: Column, base: Table): z.ZodType {
  const type =
    column.dataType === "number"
      ? z.number()
      : column.dataType === "boolean"
        ? z.boolean()
        : column.dataType === "string" || column.dataType === "date"
          ? z.string()
          : z.unknown();
  return column.notNull && column.table === base ? type : type.nullable();
}

/**
 * The record a format answers, from its selection: columns by their type, nested parts as objects,
 * computed SQL as any value. `expanded`: the resource's `expand` adds children (contacts, siteIds,
 * schedule …), so the record may hold more fields than its selection names.
 */
export function formatSchema(fields: Record<string, unknown>, base: Table, expanded = false): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, value] of Object.entries(fields)) {
    shape[key] = is(value, Column)
      ? columnSchema(value, base)
      : is(value, SQL) || is(value, SQL.Aliased) || value === null || typeof value !== "object"
        ? z.unknown()
        : formatSchema(value as Record<string, unknown>, base);
  }
  return expanded ? z.looseObject(shape) : z.object(shape);
}
