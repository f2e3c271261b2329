import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const safe = /^[A-Za-z0-9._:-]{1,100}$/;

/** Keeps a caller's (e.g. a proxy's) x-request-id when it is sane; otherwise a new uuid. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && safe.test(incoming) ? incoming : randomUUID();
}
