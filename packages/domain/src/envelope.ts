/** The response envelope of spec §3, used by every API answer. */
export type FieldError = { field: string; message: string };

export type ResponseHeader = {
  result: "success" | "error";
  errorMessage: string | null;
  errorCode: string | null;
  errorDetail: string | null;
  fieldErrors: FieldError[];
  requestId: string;
};

export type Envelope<T> = { header: ResponseHeader; data: T };

export type Pagination = { page: number; pageSize: number; total: number };

export type ListData<T> = { items: T[]; pagination: Pagination };

/** What a save answers (spec §7): the saved record, which always carries id and uuid. */
export type SaveData<T> = T & { id: number; uuid: string };

/** Error codes of design §3, one per HTTP status the API uses. */
export const errorCodes = {
  400: "VALIDATION_ERROR",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  429: "RATE_LIMITED",
  500: "INTERNAL_ERROR",
  /** The database did not answer in time; try again shortly. */
  503: "SERVICE_UNAVAILABLE",
} as const;
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

/** Every editable record carries these; `version` guards against lost updates (design §3). */
export type RecordMeta = { id: number; uuid: string; version: number };
