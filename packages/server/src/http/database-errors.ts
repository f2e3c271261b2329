import { type ErrorCode, errorCodes } from "@trialdesk/domain";
import { type ErrorCause, findCause } from "../db/error-causes";
import { AppError, invalidFieldData } from "./errors";

/** The fields of a PostgreSQL error (pg and PGlite both carry them), found through Drizzle's wrapper. */
export type PgError = { code: string; constraint?: string; table?: string; column?: string; detail?: string };

export function pgErrorOf(error: unknown): PgError | null {
  const found = findCause(error, ({ code }) => typeof code === "string" && /^[0-9A-Z]{5}$/.test(code));
  return (found as PgError | undefined) ?? null;
}

export const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** "therapyCategoryId" → "Therapy category"; "barcodePrefix" → "Barcode prefix". */
export function humanize(field: string): string {
  const words = field
    .replace(/Id$/, "")
    .replace(/([A-Z])/g, " $1")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "therapy_areas" → "therapy areas"; link tables read as what they belong to. */
export function tableLabel(table: string): string {
  const links: Record<string, string> = {
    project_sites: "projects",
    user_sites: "users",
    studyplan_schedule_entries: "studyplans",
  };
  return links[table] ?? table.replace(/_/g, " ");
}

export type UniqueOverride = { field: string; message: string };

/** A create with the uuid of a record that existed once (and was deleted). */
export const uuidUsedBeforeMessage = "This uuid belonged to another record: a new record needs a new uuid";

/**
 * Maps a database refusal to the answer the caller can act on (design §3): a unique clash or a
 * missing reference → 400 on the field; still referenced on delete → 409 naming what refers to it.
 * Returns null for anything that is not the caller's fault (answered as 500).
 */
export function databaseError(
  error: unknown,
  options: { label?: string; unique?: Record<string, UniqueOverride> } = {},
): AppError | null {
  const pg = pgErrorOf(error);
  if (!pg) return null;
  const constraint = pg.constraint ?? "";
  switch (pg.code) {
    case "23505": {
      // The audit trail's trigger: the uuid belonged to a record that was deleted (0018_audit_uuid_once).
      if (constraint === "audit_events_uuid_unique")
        return new AppError(400, invalidFieldData, [{ field: "uuid", message: uuidUsedBeforeMessage }]);
      const override = options.unique?.[constraint];
      if (override) return new AppError(400, invalidFieldData, [override]);
      const rest =
        pg.table && constraint.startsWith(`${pg.table}_`) ? constraint.slice(pg.table.length + 1) : "value";
      const field = camel(rest.replace(/_unique$/, ""));
      return new AppError(400, invalidFieldData, [{ field, message: `${humanize(field)} must be unique` }]);
    }
    // ON DELETE RESTRICT raises 23001; NO ACTION raises 23503.
    case "23001":
    case "23503": {
      const referenced = pg.detail?.match(/is (?:still )?referenced from table "([^"]+)"/)?.[1];
      if (referenced) {
        const what = options.label ?? "This record";
        return new AppError(409, `${what} is still used by ${tableLabel(referenced)}`);
      }
      const column = pg.detail?.match(/^Key \(([a-z_]+)\)/)?.[1];
      const field = column ? camel(column) : "id";
      return new AppError(400, invalidFieldData, [{ field, message: `${humanize(field)} does not exist` }]);
    }
    case "23502": {
      const field = camel(pg.column ?? "value");
      return new AppError(400, invalidFieldData, [{ field, message: `${humanize(field)} is required` }]);
    }
    case "23514": {
      const column =
        pg.table && constraint.startsWith(`${pg.table}_`) ? constraint.slice(pg.table.length + 1) : "";
      const field = camel(column.replace(/_check$/, "") || "value");
      return new AppError(400, invalidFieldData, [
        { field, message: `${humanize(field)} is not a valid value` },
      ]);
    }
    case "40001":
    case "40P01":
      return new AppError(409, "The record was changed at the same time by someone else; please try again");
  }
  // Class 22: data exceptions (a number out of range, a NUL character in text …) are bad input.
  if (pg.code.startsWith("22"))
    return new AppError(400, invalidFieldData, [], "A value is out of range or malformed");
  return null;
}

/**
 * The envelope's code of a 503: the database cannot be reached in time (design §3,
 * SERVICE_UNAVAILABLE; the web shows the message like any other server error).
 */
export const databaseUnavailableCode: ErrorCode = errorCodes[503];
export const databaseUnavailableMessage =
  "The database is not answering at the moment. Please try again in a few seconds.";

const unreachable =
  /Query read timeout|Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended|connection error|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE/i;

/**
 * Whether an error says the database could not be reached or did not answer in time (a stalled
 * network, a restarting server, the statement or connect timeouts): answered 503, not 500.
 */
export function databaseUnavailable(error: unknown): boolean {
  const unavailable = ({ code, message }: ErrorCause) =>
    // 08: connection exceptions; 57P01-03: server shutting down or starting; 57014: statement
    // timeout (or cancel); 53300: too many connections; 3D000, 28000, 28P01: the server refuses the
    // connection itself (no such database, role or password: issue 46, answered 500 before).
    (typeof code === "string" && /^(08...|57P0[123]|57014|53300|3D000|28000|28P01)$/.test(code)) ||
    (typeof code === "string" && /^E[A-Z]+$/.test(code) && unreachable.test(code)) ||
    (typeof message === "string" && unreachable.test(message));
  return findCause(error, unavailable) !== undefined;
}
