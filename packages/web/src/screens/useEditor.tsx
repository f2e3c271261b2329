import { useQueryClient } from "@tanstack/react-query";
import { type FieldErrors, loadingOverlayDelayMs } from "@trialdesk/domain";
import { RotateCcw } from "lucide-react";
import { useEffect, useState } from "react";
import { ApiError, api } from "../api/client";
import { invalidateResource } from "../api/queries";
import { Button } from "../ui/button";
import { useReasonForChange } from "./reason-for-change";
import type { FormApi } from "./useFormState";
import { useUnsavedChangesGuard } from "./useUnsavedChangesGuard";

type Data = Record<string, unknown> & { id?: number | null; uuid?: string; version?: number };

/** Why a save failed, in words: the server's message and, for field errors, what they say. */
export function saveErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const fields = error instanceof ApiError ? error.fieldErrors.map((e) => e.message) : [];
  return fields.length > 0 ? `${error.message}: ${fields.join("; ")}` : error.message;
}

/**
 * What every editor of a record does around its fields (spec §2.3): Save enabled a moment after
 * loading ends, one save at a time, create or update by the record's id, the server's 400 field
 * errors on the fields, a 409 as a banner offering to reload, the unsaved-changes guard, and after a
 * save the resource's queries read again; an edit of recorded clinical data first asks the reason for
 * the change (render `reasonDialog`). The generic form and the studyplan editor both use it;
 * each says in `onSaved` and `onFailed` what it tells the user and where it goes next.
 */
export function useEditor<T extends Data>({
  resource,
  form,
  loading,
  loaded,
  reload,
  toForm = (saved) => saved,
  onSaved,
  onFailed,
}: {
  resource: string;
  form: FormApi<T>;
  loading: boolean;
  loaded: boolean;
  /** Reads the record again (after a 409): answers it, or nothing when that failed. */
  reload: () => Promise<T | undefined>;
  /** The saved record as the form holds it. */
  toForm?: (saved: T) => T;
  onSaved: (saved: T, isNew: boolean) => void;
  onFailed: (error: unknown, isNew: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (loading || !loaded) {
      setReady(false);
      return;
    }
    const timer = setTimeout(() => setReady(true), loadingOverlayDelayMs);
    return () => clearTimeout(timer);
  }, [loading, loaded]);

  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState(false);
  // Saves refused for field errors (client validation or a server 400), so a layout can react to each.
  const [failedSaves, setFailedSaves] = useState(0);
  // Why the last save failed; `fields` when it was for field errors, so the bar goes with them.
  const [saveError, setSaveError] = useState<{ text: string; fields: boolean } | null>(null);
  const hasErrors = Object.keys(form.errors).length > 0;
  useEffect(() => {
    if (!hasErrors) setSaveError((current) => (current?.fields ? null : current));
  }, [hasErrors]);
  const guard = useUnsavedChangesGuard(form.unsaved);

  /** Refuses a save for the client's own field errors. */
  const refuse = (errors: FieldErrors) => {
    form.setErrors(errors);
    setFailedSaves((n) => n + 1);
  };

  // An edit of recorded clinical data says why (issue 46, point 1); a new record needs no reason.
  const reasons = useReasonForChange(resource, "Save");

  const send = async (data: T) => {
    const isNew = typeof data.id !== "number";
    const headers = isNew ? {} : await reasons.headersFor(form.originalData);
    // Cancelled: the form stays as it is, nothing is sent.
    if (headers === null) return;
    // The form data this save is made of: what is typed after it is kept over the answer.
    const sent = form.formData;
    setSaving(true);
    setConflict(false);
    setSaveError(null);
    try {
      const saved = isNew
        ? await api.post<T>(resource, data)
        : await api.put<T>(`${resource}/${data.uuid}`, data, headers);
      void invalidateResource(queryClient, resource);
      form.setSaved(toForm(saved), sent);
      guard.release();
      onSaved(saved, isNew);
    } catch (error) {
      const badRequest = error instanceof ApiError && error.isBadRequest;
      setSaveError({ text: saveErrorText(error), fields: badRequest && error.fieldErrors.length > 0 });
      if (badRequest) {
        const fieldErrors: FieldErrors = {};
        for (const { field, message } of error.fieldErrors) fieldErrors[field] ??= message;
        refuse(fieldErrors);
      } else if (error instanceof ApiError && error.isConflict && !isNew) {
        setConflict(true);
      }
      onFailed(error, isNew);
    } finally {
      setSaving(false);
    }
  };

  const reloadRecord = async () => {
    const fresh = await reload();
    if (fresh) {
      form.setLoaded(toForm(fresh));
      setConflict(false);
    }
  };

  /** The 409 banner: someone else saved the record meanwhile; Reload reads their version. */
  const conflictBanner = conflict && (
    <div
      role="alert"
      className="mx-4 mt-4 flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <span>Someone else changed this record since you opened it.</span>
      <Button variant="secondary" onClick={reloadRecord}>
        <RotateCcw aria-hidden="true" className="size-4" />
        Reload
      </Button>
    </div>
  );

  return {
    ready,
    saving,
    send,
    refuse,
    failedSaves,
    saveError,
    conflict,
    conflictBanner,
    guard,
    /** The reason question; render it beside the form. */
    reasonDialog: reasons.dialog,
  };
}
