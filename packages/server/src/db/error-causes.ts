export type ErrorCause = { code?: unknown; message?: unknown };

/**
 * The first of an error and the errors it wraps (Drizzle wraps the driver's), nearest first and a
 * few deep, that passes `test`.
 */
export function findCause(error: unknown, test: (cause: ErrorCause) => boolean): ErrorCause | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (test(current as ErrorCause)) return current as ErrorCause;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
