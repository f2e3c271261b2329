/**
 * Form validation of spec §5. A validator maps a form's data to field errors keyed by the field's
 * path ("name", "patientDetail.firstName"); an empty object means the data may be saved. The same
 * validator runs in the browser before saving and on the server before writing.
 */
export type FieldErrors = Record<string, string>;

export type Rule<T> = (data: T) => FieldErrors | undefined;

/** Runs rules in order; the first message for a field wins, as a user reads them top-down. */
export function validator<T>(...rules: Rule<T>[]) {
  return (data: T): FieldErrors => {
    const errors: FieldErrors = {};
    for (const rule of rules) {
      for (const [field, message] of Object.entries(rule(data) ?? {})) {
        if (!(field in errors)) errors[field] = message;
      }
    }
    return errors;
  };
}

/** Reads a dotted path such as "patientDetail.firstName". */
export function valueAt(data: unknown, path: string): unknown {
  let value: unknown = data;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export function isBlank(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

export function required<T>(field: string, message: string): Rule<T> {
  return (data) => (isBlank(valueAt(data, field)) ? { [field]: message } : undefined);
}

export function minLength<T>(field: string, min: number, message: string): Rule<T> {
  return (data) => {
    const value = valueAt(data, field);
    return typeof value === "string" && value.trim().length < min ? { [field]: message } : undefined;
  };
}

export function maxLength<T>(field: string, max: number, message: string): Rule<T> {
  return (data) => {
    const value = valueAt(data, field);
    return typeof value === "string" && value.length > max ? { [field]: message } : undefined;
  };
}

/** A rule that applies only when `when` holds, e.g. password rules for new users only. */
export function when<T>(condition: (data: T) => boolean, ...rules: Rule<T>[]): Rule<T> {
  const inner = validator(...rules);
  return (data) => (condition(data) ? inner(data) : undefined);
}

export function check<T>(field: string, ok: (data: T) => boolean, message: string): Rule<T> {
  return (data) => (ok(data) ? undefined : { [field]: message });
}
