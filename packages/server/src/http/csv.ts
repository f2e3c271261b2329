import { Readable } from "node:stream";
import { toIsoDate } from "@trialdesk/domain";
import type { FastifyReply } from "fastify";
import { validationError } from "./errors";

/**
 * CSV exports of the lists (issue 15): RFC 4180 text in UTF-8 with a byte-order mark (so spreadsheet
 * programs read accents right), CRLF line ends, streamed to the client batch by batch.
 */

export const csvBom = "\uFEFF";
export const csvContentType = "text/csv; charset=utf-8";

/** Columns of one export at most; lists show fewer than a dozen. */
const maxColumns = 50;

/**
 * One cell. Text a spreadsheet would run as a formula (= + - @, or a tab or CR that some programs
 * skip before one) gets a leading apostrophe, so "=HYPERLINK(…)" typed into a name stays text
 * (docs/decisions.md, CSV exports). Cells holding a comma, quote, CR or LF are quoted, quotes doubled
 * (RFC 4180); a semicolon too, the separator Hungarian, Austrian and Polish Excel read (issue 46).
 */
export function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (cells: string[]) => `${cells.map(csvCell).join(",")}\r\n`;

/** A value as a list shows it when nothing more is said: nothing for null, booleans as words. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

export type CsvColumn = { key: string; title: string };

/**
 * The `columns` parameter of an export: the list's visible columns as a JSON array of [key, title]
 * pairs (the titles are the web list's own; docs/decisions.md, CSV exports). Keys must be columns the export can
 * write; anything else is a 400 like any other bad parameter.
 */
export function parseCsvColumns(raw: unknown, known: ReadonlySet<string>): CsvColumn[] {
  const refuse = (message: string): never => {
    throw validationError([{ field: "columns", message }], "Invalid query parameters");
  };
  if (typeof raw !== "string" || raw === "") return refuse("Columns are required");
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return refuse("Columns must be a JSON list of [key, title] pairs");
  }
  const pairs = Array.isArray(parsed) ? parsed : [];
  const valid =
    pairs.length > 0 &&
    pairs.length <= maxColumns &&
    pairs.every(
      (pair) =>
        Array.isArray(pair) &&
        pair.length === 2 &&
        typeof pair[0] === "string" &&
        typeof pair[1] === "string" &&
        pair[1].length <= 200,
    );
  if (!valid) refuse(`Columns must be a JSON list of 1 to ${maxColumns} [key, title] pairs`);
  const columns = (pairs as [string, string][]).map(([key, title]) => ({ key, title }));
  const unknown = columns.filter((column) => !known.has(column.key));
  if (unknown.length > 0) refuse(`Unknown column: ${unknown.map((c) => c.key.slice(0, 100)).join(", ")}`);
  return columns;
}

/**
 * Sends a CSV download: the header row, then each batch of rows as it is read. The stream is pulled
 * as the client takes it (a slow client slows the reads, nothing piles up in memory), and a client
 * that goes away stops the reads. @fastify/compress gzips the stream like any other answer.
 */
export function sendCsv(
  reply: FastifyReply,
  name: string,
  header: string[],
  batches: AsyncIterable<string[][]>,
) {
  async function* lines() {
    yield Buffer.from(csvBom + csvLine(header), "utf8");
    for await (const rows of batches) {
      if (rows.length > 0) yield Buffer.from(rows.map(csvLine).join(""), "utf8");
    }
  }
  return reply
    .header("content-type", csvContentType)
    .header("content-disposition", `attachment; filename="${name}-${toIsoDate(new Date())}.csv"`)
    .send(Readable.from(lines(), { objectMode: false }));
}
