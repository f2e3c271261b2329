import type { FastifyServerOptions } from "fastify";

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
