import type { FastifyServerOptions } from "fastify";
import { type ErrorCause, findCause } from "../db/error-causes";

/** Query parameters whose values are safe to log; any other value (a search for a name or an SSN) is not. */
const loggedParameters = new Set(["page", "pagesize", "order", "direction", "format", "type"]);

/** "/api/patients?searchTerm=Kovacs&page=2" → "/api/patients?searchTerm=[hidden]&page=2". */
export function loggableUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const parts = url
    .slice(at + 1)
    .split("&")
    .filter(Boolean)
    .map((part) => {
      const key = part.split("=")[0];
      let name = key;
      try {
        name = decodeURIComponent(key.replace(/\+/g, " "));
      } catch {
        // A malformed key is logged as sent, without its value.
      }
      return loggedParameters.has(name) ? part : `${key}=[hidden]`;
    });
  return `${url.slice(0, at)}?${parts.join("&")}`;
}

type RequestLike = {
  method: string;
  url: string;
  version?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
};

/** The logger options with a request serializer that never writes search terms to the log. */
export function loggerOptions(logger: FastifyServerOptions["logger"]): FastifyServerOptions["logger"] {
  if (!logger || typeof logger !== "object") return logger;
  return {
    ...logger,
    serializers: {
      ...(logger as { serializers?: Record<string, unknown> }).serializers,
      req: (request: RequestLike) => ({
        method: request.method,
        url: loggableUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  } as FastifyServerOptions["logger"];
}

/** Drizzle's wrapper of a failed statement: its message and fields carry the statement and its values. */
const isFailedQuery = (error: ErrorCause) => "query" in error && "params" in error;
const hasCode = ({ code }: ErrorCause) => typeof code === "string" && code !== "";

/**
 * What the log keeps of an error (issue 46): of a database error only its code and message, never the
 * statement's parameters (a patient's SSN, a password hash), the statement, or the detail that quotes a
 * row's values; a data error's message (class 22) may quote a value too, and keeps its words only. Any
 * other error is logged as it is.
 */
export function loggableError(error: unknown): unknown {
  if (!error || typeof error !== "object") return error;
  const wrapper = findCause(error, isFailedQuery);
  const coded = findCause(error, (cause) => hasCode(cause) && typeof cause.message === "string");
  if (!wrapper && !(coded && /^[0-9A-Z]{5}$/.test(String(coded.code)))) return error;
  // The driver's own error under Drizzle's wrapper (a lost connection has a message but no code).
  const driver =
    coded ?? (wrapper ? findCause((wrapper as { cause?: unknown }).cause, () => true) : undefined);
  const code = driver && hasCode(driver) ? String(driver.code) : null;
  let message = typeof driver?.message === "string" ? driver.message : "The statement failed";
  if (code?.startsWith("22")) message = message.replace(/"[^"]*"/g, '"…"');
  return { type: "DatabaseError", code, message };
}
