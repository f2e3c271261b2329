import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const safe = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Every request's own id, always the server's: a caller's x-request-id would otherwise be written into
 * audit rows as it was sent, so anyone could make their changes look like another request's (issue 46).
 */
export function requestId(_request: IncomingMessage): string {
  return randomUUID();
}

/** A caller's (e.g. a proxy's) x-request-id, when sane: kept apart, in the log line, to follow a trace. */
export function clientRequestId(request: IncomingMessage): string | undefined {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && safe.test(incoming) ? incoming : undefined;
}
