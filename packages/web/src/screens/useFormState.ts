import type { FieldErrors } from "@trialdesk/domain";
import { useMemo, useReducer, useState } from "react";

/**
 * The form state of spec §3 / §4, shared by every form: the original data, the form data, the
 * errors and the unsaved-changes flag. The flag is true when any value differs from the original,
 * compared as strings.
 */
export type FormState<T> = { originalData: T; formData: T; errors: FieldErrors; unsaved: boolean };

type Data = Record<string, unknown>;

export type FormAction<T> =
  | { type: "reset" }
  | { type: "setLoaded"; data: T }
  | { type: "setSaved"; data: T; sent: T }
  | { type: "setFetched"; data: T }
  | { type: "setFormData"; data: T }
  | { type: "setValue"; path: string; value: unknown }
  | { type: "setErrors"; errors: FieldErrors }
  | { type: "setUnsaved"; unsaved: boolean }
  | { type: "setPart"; key: string; value: unknown };

const isPlainObject = (value: unknown): value is Data =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Flattens data to dotted paths with string values. null and undefined read as "" so a field the
 * server sent as null and the user left empty does not count as a change.
 */
export function flatten(
  value: unknown,
  prefix = "",
  out: Record<string, string> = {},
): Record<string, string> {
  if (isPlainObject(value) || Array.isArray(value)) {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    // An empty list or block still differs from a filled one: keep a marker for it.
    if (entries.length === 0 && prefix) out[prefix] = "";
    for (const [key, v] of entries) flatten(v, prefix ? `${prefix}.${key}` : key, out);
  } else if (prefix) {
    out[prefix] = value === null || value === undefined ? "" : String(value);
  }
  return out;
}

/** True when any value of `a` and `b` differs, compared as strings (spec §4 Forms). */
export function differs(a: unknown, b: unknown): boolean {
  const fa = flatten(a);
  const fb = flatten(b);
  for (const key of new Set([...Object.keys(fa), ...Object.keys(fb)])) {
    if ((fa[key] ?? "") !== (fb[key] ?? "")) return true;
  }
  return false;
}

/**
 * Where a plain key is written: at the top level when it exists there, else in the first nested
 * block (e.g. patientDetail, address) that has it, else at the top level. A dotted path is used as
 * given. This is the patient form's routing (spec §4), generic so every form shares it.
 */
export function routePath(data: unknown, key: string): string {
  if (key.includes(".") || !isPlainObject(data) || key in data) return key;
  for (const [part, block] of Object.entries(data)) {
    if (isPlainObject(block) && key in block) return `${part}.${key}`;
  }
  return key;
}

/** Returns a copy of `data` with `value` at the dotted `path`, creating blocks on the way. */
export function setAt<T>(data: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split(".");
  const base: Data = isPlainObject(data) ? data : {};
  return {
    ...base,
    [head]: rest.length === 0 ? value : setAt(base[head], rest.join("."), value),
  } as T;
}

/**
 * The errors left once a change from `before` to `after` is made: a field whose value changed (itself
 * or anything inside it, e.g. a contact of a list) loses its error; the others stay until the next
 * save. Every change goes through here, whether one value, a part or the whole form data is set.
 */
export function withoutChangedErrors(errors: FieldErrors, before: unknown, after: unknown): FieldErrors {
  const paths = Object.keys(errors);
  if (paths.length === 0) return errors;
  const fa = flatten(before);
  const fb = flatten(after);
  const changed = [...new Set([...Object.keys(fa), ...Object.keys(fb)])].filter(
    (key) => (fa[key] ?? "") !== (fb[key] ?? ""),
  );
  const kept = paths.filter(
    (path) =>
      !changed.some((key) => key === path || key.startsWith(`${path}.`) || path.startsWith(`${key}.`)),
  );
  return kept.length === paths.length ? errors : Object.fromEntries(kept.map((path) => [path, errors[path]]));
}

/**
 * The saved record with what was typed while its save was on its way: wherever the form data now
 * differs from the data the save was made of, the newer value stays (a changed list, such as the
 * contacts, stays whole); everywhere else the saved record's value (its new version, server-made values).
 */
export function withTypedMeanwhile<T>(saved: T, sent: T, current: T): T {
  if (!isPlainObject(saved) || !isPlainObject(sent) || !isPlainObject(current)) {
    return differs({ value: sent }, { value: current }) ? current : saved;
  }
  const merged: Data = { ...saved };
  for (const key of Object.keys(current)) {
    if (differs({ value: sent[key] }, { value: current[key] }))
      merged[key] = withTypedMeanwhile(saved[key], sent[key], current[key]);
  }
  return merged as T;
}

/** Whether `data` is the version of the record that the form holds as its original. */
function holds(original: unknown, data: unknown): boolean {
  if (!isPlainObject(original) || !isPlainObject(data)) return false;
  const { uuid, version } = original;
  return uuid != null && version != null && uuid === data.uuid && String(version) === String(data.version);
}

export function formReducer<T>(normalize: (data: T) => T = (d) => d) {
  return (state: FormState<T>, action: FormAction<T>): FormState<T> => {
    const loaded = (data: T): FormState<T> => ({
      originalData: data,
      formData: data,
      errors: {},
      unsaved: false,
    });
    const changed = (formData: T): FormState<T> => ({
      ...state,
      formData,
      errors: withoutChangedErrors(state.errors, state.formData, formData),
      unsaved: differs(state.originalData, formData),
    });
    switch (action.type) {
      case "reset":
        return { ...state, formData: state.originalData, errors: {}, unsaved: false };
      case "setLoaded":
        return loaded(action.data);
      case "setFetched":
        return holds(state.originalData, action.data) ? state : loaded(action.data);
      case "setSaved": {
        const formData = withTypedMeanwhile(action.data, action.sent, state.formData);
        return { originalData: action.data, formData, errors: {}, unsaved: differs(action.data, formData) };
      }
      case "setFormData":
        return changed(normalize(action.data));
      case "setValue":
        return changed(
          normalize(setAt(state.formData, routePath(state.formData, action.path), action.value)),
        );
      case "setPart":
        return changed(normalize(setAt(state.formData, action.key, action.value)));
      case "setErrors":
        return { ...state, errors: action.errors };
      case "setUnsaved":
        return { ...state, unsaved: action.unsaved };
    }
  };
}

export type FormApi<T> = FormState<T> & {
  reset: () => void;
  setLoaded: (data: T) => void;
  /**
   * The record as read from the server: loaded, unless the form holds that version already (its own
   * save's answer, read again), which would drop what was typed since.
   */
  setFetched: (data: T) => void;
  /** The record as saved from `sent`, keeping what was typed since (withTypedMeanwhile). */
  setSaved: (data: T, sent: T) => void;
  setFormData: (data: T) => void;
  /** Sets one value by key or dotted path; a plain key is routed to where it exists. */
  setValue: (path: string, value: unknown) => void;
  setErrors: (errors: FieldErrors) => void;
  setUnsaved: (unsaved: boolean) => void;
  /** Replaces a whole part, such as the contacts list or the address block. */
  setPart: (key: string, value: unknown) => void;
};

export function useFormState<T>(initial: () => T, options: { normalize?: (data: T) => T } = {}): FormApi<T> {
  // The reducer is fixed for the form's lifetime; normalize is a pure function of the resource.
  const [reducer] = useState(() => formReducer<T>(options.normalize));
  const [state, dispatch] = useReducer(reducer, undefined, () => {
    const data = initial();
    return { originalData: data, formData: data, errors: {}, unsaved: false };
  });
  const actions = useMemo(
    () => ({
      reset: () => dispatch({ type: "reset" }),
      setLoaded: (data: T) => dispatch({ type: "setLoaded", data }),
      setSaved: (data: T, sent: T) => dispatch({ type: "setSaved", data, sent }),
      setFetched: (data: T) => dispatch({ type: "setFetched", data }),
      setFormData: (data: T) => dispatch({ type: "setFormData", data }),
      setValue: (path: string, value: unknown) => dispatch({ type: "setValue", path, value }),
      setErrors: (errors: FieldErrors) => dispatch({ type: "setErrors", errors }),
      setUnsaved: (unsaved: boolean) => dispatch({ type: "setUnsaved", unsaved }),
      setPart: (key: string, value: unknown) => dispatch({ type: "setPart", key, value }),
    }),
    [],
  );
  return { ...state, ...actions };
}
