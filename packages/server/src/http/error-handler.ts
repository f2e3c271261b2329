import type { FastifyError, FastifyInstance } from "fastify";
import {
  databaseError,
  databaseUnavailable,
  databaseUnavailableCode,
  databaseUnavailableMessage,
} from "./database-errors";
import { failure } from "./envelope";
import { AppError, type ErrorStatus } from "./errors";
import { loggableError } from "./logging";

const answered: ErrorStatus[] = [400, 401, 403, 404, 409, 429];

/** Messages for the framework's own 4xx errors, in the envelope's words. */
function frameworkError(error: FastifyError): AppError | null {
  const status = error.statusCode ?? 500;
  if (status >= 500) return null;
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new AppError(400, "Malformed JSON body", [], null);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new AppError(400, "Unsupported content type: send application/json");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new AppError(400, "Request body is too large");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new AppError(400, "Invalid content length");
  }
  if (error instanceof SyntaxError) return new AppError(400, "Malformed JSON body");
  const known = answered.includes(status as ErrorStatus) ? (status as ErrorStatus) : 400;
  return new AppError(known, known === 400 ? "Bad request" : error.message);
}

/**
 * Every error leaves as the envelope with the design §3 status and code. Unexpected ones are logged
 * in full (a database error by its code and message only, never its statement's values: issue 46) and
 * answered with a generic message: never a stack trace or SQL text.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((raw, request, reply) => {
    const error = raw as FastifyError;
    const known = error instanceof AppError ? error : (databaseError(error) ?? frameworkError(error));
    if (known) {
      if (known.status === 400 || known.status === 409)
        request.log.info({ err: loggableError(error) }, known.message);
      return reply.code(known.status).send(failure(request, known));
    }
    if (databaseUnavailable(error)) {
      request.log.error({ err: loggableError(error) }, "database unavailable");
      return reply
        .code(503)
        .header("retry-after", "5")
        .send(
          failure(request, {
            message: databaseUnavailableMessage,
            code: databaseUnavailableCode,
            detail: null,
          }),
        );
    }
    request.log.error({ err: loggableError(error) }, "unexpected error");
    return reply.code(500).send(
      failure(request, {
        message: "Internal server error",
        code: "INTERNAL_ERROR",
        detail: `Please quote request id ${request.id}`,
      }),
    );
  });
}
