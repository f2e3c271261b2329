import type { Envelope, FieldError } from "@trialdesk/domain";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppError } from "./errors";

/** The spec's envelope (§3) around a successful answer. */
export function success<T>(request: FastifyRequest, data: T): Envelope<T> {
  return {
    header: {
      result: "success",
      errorMessage: null,
      errorCode: null,
      errorDetail: null,
      fieldErrors: [],
      requestId: request.id,
    },
    data,
  };
}

export function failure(
  request: FastifyRequest,
  error: Pick<AppError, "message" | "code" | "detail"> & { fieldErrors?: FieldError[] },
): Envelope<null> {
  return {
    header: {
      result: "error",
      errorMessage: error.message,
      errorCode: error.code,
      errorDetail: error.detail,
      fieldErrors: error.fieldErrors ?? [],
      requestId: request.id,
    },
    data: null,
  };
}

export function send<T>(request: FastifyRequest, reply: FastifyReply, data: T, status = 200) {
  return reply.code(status).send(success(request, data));
}
