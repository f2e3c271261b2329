import { type ErrorCode, errorCodes, type FieldError, type FieldErrors } from "@trialdesk/domain";

export type ErrorStatus = keyof typeof errorCodes;

/** An error the API answers as-is: its status, the envelope's message and any field errors. */
export class AppError extends Error {
  readonly code: ErrorCode;
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    readonly detail: string | null = null,
  ) {
    super(message);
    this.code = errorCodes[status];
  }
}

export const invalidFieldData = "Invalid field data";

export function fieldErrorList(errors: FieldErrors): FieldError[] {
  return Object.entries(errors).map(([field, message]) => ({ field, message }));
}

export const validationError = (errors: FieldErrors | FieldError[], message = invalidFieldData) =>
  new AppError(400, message, Array.isArray(errors) ? errors : fieldErrorList(errors));
export const badRequest = (message: string) => new AppError(400, message);
export const unauthenticated = (message = "Authentication required") => new AppError(401, message);
export const forbidden = (message = "You are not allowed to do this") => new AppError(403, message);
export const notFound = (message = "Not found") => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const rateLimited = (message: string) => new AppError(429, message);
