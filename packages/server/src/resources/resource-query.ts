import type { FieldErrors } from "@trialdesk/domain";
import { and, is, or, SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { type Db, queryRows } from "../db/client";
import { validationError } from "../http/errors";

/** Query strings and the SQL they become: parsing, LIKE patterns and keyset pages. */
/** Zod issues → field errors keyed by dotted path; unknown fields are named one by one. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const prefix = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) errors[prefix ? `${prefix}.${key}` : key] ??= "Unknown field";
    } else {
      errors[prefix || "body"] ??= issue.message;
    }
  }
  return errors;
}

/** Parses a custom route's JSON body with a strict zod object (routes do not validate: openapi.ts) → 400. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw validationError([], "The request body must be a JSON object");
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationError(zodFieldErrors(parsed.error));
  return parsed.data;
}

/** Parses a query string with a strict zod object; unknown parameters or values → 400. */
export function parseQuery<T>(schema: z.ZodType<T>, query: unknown): T {
  const parsed = schema.safeParse(query ?? {});
  if (!parsed.success) {
    const errors = zodFieldErrors(parsed.error);
    throw validationError(
      Object.entries(errors).map(([field, message]) => ({
        field,
        message: message === "Unknown field" ? "Unknown parameter" : message,
      })),
      "Invalid query parameters",
    );
  }
  return parsed.data;
}

/** Ids as one PostgreSQL array value ('{}' matches nothing): one parameter, however many ids. */
export const intArray = (ids: readonly number[]) => `{${ids.map(Number).join(",")}}`;

/** A typed term as plain text inside an ILIKE pattern (%, _ and \\ match themselves). */
export const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A column the database keeps folded by `search_fold` (lower case, no accents: the patient search
 * text, migration 0012): a word matches it without its accents too, "kovacs" finding Kovács.
 */
export type FoldedText = { folded: SQLWrapper };
export const foldedText = (column: SQLWrapper): FoldedText => ({ folded: column });
/**
 * A column of another table that a list's search looks in, reached by a key of the listed rows (a
 * patient visit's patient): `through` is that key, `id` the other table's id; `joined` when the list's
 * query joins that table (decision 176).
 */
export type KeyedSearch = {
  through: SQLWrapper;
  id: PgColumn;
  column: FoldedText | SQLWrapper;
  joined: boolean;
};
export const throughKey = (
  through: SQLWrapper,
  id: PgColumn,
  column: FoldedText | SQLWrapper,
  joined = true,
): KeyedSearch => ({ through, id, column, joined });
/** A column a list's search looks in: as it is stored (ILIKE), folded, or in another table by a key. */
export type SearchColumn = SQLWrapper | FoldedText | KeyedSearch;
const isKeyed = (column: SearchColumn): column is KeyedSearch => "through" in column && "id" in column;

/** Ids a keyed search column may pass on as a list for one word; beyond, it is a subquery. */
export const listedKeysBound = 2_000;
/** For each keyed search column, the ids each typed word matched there (by the word's place). */
type FoundKeys = Map<KeyedSearch, number[][]>;

/**
 * The ids each word matches in each keyed column's table, up to listedKeysBound + 1, in one statement.
 * Passed on as lists (wordInColumns), they let the planner know how few rows a rare word means and
 * read them by the key's index: within an OR, a subquery's rows are unknown to it, and it walked the
 * list's whole order instead (a patient's barcode among a site's 540,000 patient visits: ~1.5 s).
 */
async function keysOfWords(db: Db, words: string[], columns: SearchColumn[]): Promise<FoundKeys> {
  const keyed = columns.filter(isKeyed);
  const found: FoundKeys = new Map();
  if (keyed.length === 0 || words.length === 0) return found;
  const [row] = await queryRows<Record<string, number[]>>(
    db,
    sql`select ${sql.join(
      words.flatMap((word, w) =>
        keyed.map(
          (column, k) => sql`array(select ${column.id} from ${column.id.table}
            where ${containsWord(column.column, word)} limit ${listedKeysBound + 1}) as ${sql.identifier(`k${w}_${k}`)}`,
        ),
      ),
      sql`, `,
    )}`,
  );
  for (const [k, column] of keyed.entries())
    found.set(
      column,
      words.map((_, w) => row[`k${w}_${k}`].map(Number)),
    );
  return found;
}

/**
 * How a keyed column matches the `w`th word: by the ids found for it; past the bound, by a subquery;
 * but a word too short for the trigram index (under 3 characters) in a joined table is matched there,
 * row by row along the list's order, as it finds a page soonest: its subquery read the whole table
 * (the visits with an "a": 25 → 113 ms).
 */
function keyedMatch(column: KeyedSearch, word: string, w: number, found: FoundKeys) {
  const ids = found.get(column)?.[w];
  if (ids && ids.length <= listedKeysBound) return { ids };
  if (column.joined && [...word].length < 3) return { joined: true };
  return {
    subquery: sql`select ${column.id} from ${column.id.table} where ${containsWord(column.column, word)}`,
  };
}

/**
 * A typed word (the `w`th) in any of the columns, a keyed column as keyedMatch says (no ids: not
 * there); its subquery as an array with `asArray` (see searchCondition).
 */
function wordInColumns(columns: SearchColumn[], word: string, w: number, found: FoundKeys, asArray: boolean) {
  const conditions = columns.map((column) => {
    if (!isKeyed(column)) return containsWord(column, word);
    const match = keyedMatch(column, word, w, found);
    if (match.ids)
      return match.ids.length > 0 ? sql`${column.through} = any(${intArray(match.ids)}::int[])` : undefined;
    if (match.joined) return containsWord(column.column, word);
    return asArray
      ? sql`${column.through} = any(array(${match.subquery}))`
      : sql`${column.through} in (${match.subquery})`;
  });
  return or(...conditions) ?? sql`false`;
}

/** A search's condition for finding a list's page, and for counting all its rows (searchCondition). */
export type SearchCondition = { page: SQL; count: SQL };

/**
 * A search's condition: every typed word in one of the columns, the keyed ones' matches looked up
 * first (keysOfWords); none without words.
 *
 * Its count, beside columns of the list's own table, takes the first subquery's answer as an array:
 * the planner then ORs it with their trigram indexes as bitmaps, where a subquery in an OR is a filter
 * on every row of the list (study patients by "kovacs" at a 50,000-patient site: ~75 → 12 ms). Only
 * one: as a filter an array is searched from end to end on each row, a subquery by its hash ("kovacs
 * anna", both arrays: 75 ms; one: 24 ms). A page keeps the subqueries, as its walk along the list's
 * order stops at the page; so does a count of keyed columns alone, which the planner joins (patient
 * visits by "anna": 10 ms, 174 as an array).
 */
export async function searchCondition(
  db: Db,
  words: string[],
  columns: SearchColumn[],
): Promise<SearchCondition | undefined> {
  if (words.length === 0) return undefined;
  const found = await keysOfWords(db, words, columns);
  const ownColumns = columns.some((column) => !isKeyed(column));
  const arrayWord = ownColumns
    ? words.findIndex((word, w) =>
        columns.some((column) => isKeyed(column) && keyedMatch(column, word, w, found).subquery),
      )
    : -1;
  const condition = (counting: boolean) =>
    and(
      ...words.map((word, w) => wordInColumns(columns, word, w, found, counting && w === arrayWord)),
    ) as SQL;
  return { page: condition(false), count: condition(true) };
}

/**
 * A column that contains a typed word, whatever its case. A folded column is matched with LIKE on
 * the folded word (folded once, when the statement is planned): the trigram index serves it as it
 * serves ILIKE, without lowering each candidate row (a barcode's ~6,700 candidates: 12.6 → 9.2 ms;
 * "an" at a 50,000-patient site: 100 → 38 ms; issue 14).
 */
export function containsWord(column: FoldedText | SQLWrapper, word: string): SQL {
  const pattern = `%${escapeLike(word)}%`;
  return "folded" in column
    ? sql`${column.folded} like search_fold(${pattern})`
    : sql`${column} ilike ${pattern}`;
}

/** One key of a keyset order: the sorted expression, and whether it can be null. */
export type KeysetKey = { key: SQLWrapper; nullable: boolean };

/**
 * The rows after the one whose keys are `last`, in an order by `keys` in turn, all ascending (nulls
 * last) or all descending (nulls first), as PostgreSQL sorts them. Keys that are never null compare
 * as one row value, which an index on them serves as a range; otherwise each key says where its nulls go.
 */
export function keysetAfter(keys: KeysetKey[], last: unknown[], descending: boolean): SQL {
  const values = last.map((value) => value ?? null);
  const parts = keys.map(({ key }) => (is(key, SQL.Aliased) ? key.sql : key));
  if (keys.every((k) => !k.nullable) && values.every((value) => value !== null)) {
    const row = sql`(${sql.join(parts, sql`, `)})`;
    const at = sql`(${sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    )})`;
    return descending ? sql`${row} < ${at}` : sql`${row} > ${at}`;
  }
  const equal = (key: SQLWrapper, value: unknown) =>
    value === null ? sql`${key} is null` : sql`${key} = ${value}`;
  const beyond = (key: SQLWrapper, value: unknown, nullable: boolean) => {
    if (descending) return value === null ? sql`${key} is not null` : sql`${key} < ${value}`;
    if (value === null) return undefined;
    return nullable ? sql`(${key} > ${value} or ${key} is null)` : sql`${key} > ${value}`;
  };
  const terms = parts.map((key, i) => {
    const next = beyond(key, values[i], keys[i].nullable);
    return next && and(...parts.slice(0, i).map((earlier, j) => equal(earlier, values[j])), next);
  });
  return or(...terms) ?? sql`false`;
}
