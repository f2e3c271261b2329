import { useQuery } from "@tanstack/react-query";
import {
  type FieldErrors,
  newUuid,
  type ResourceName,
  resourceRules,
  resourceTitle,
} from "@trialdesk/domain";
import { RotateCcw, Save } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useNavigationType, useParams } from "react-router";
import { ApiError, api } from "../api/client";
import { queryKeys } from "../api/queries";
import { NotFoundPage } from "../app/not-found";
import { dismissToast, toast } from "../app/toast";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { Banner, Panel, PanelHeader } from "../ui/panel";
import { LoadingOverlay } from "../ui/spinner";
import { type FieldSpec, FormField, fieldId } from "./FormFields";
import { useCanWrite, useGoBack } from "./navigation";
import { useEditor } from "./useEditor";
import { type FormApi, useFormState } from "./useFormState";

// biome-ignore lint/suspicious/noExplicitAny: form data is whatever the resource's schema describes
type Data = Record<string, any>;

type FormRules<T> = { empty: () => T; normalize?: (data: T) => T; validate: (data: T) => FieldErrors };

export type FormDescription<T extends Data> = {
  /** The URL segment, the same as the API resource. */
  /** The API and route name; the domain's registry says who may change its records. */
  resource: ResourceName;
  /**
   * The record's name in toasts ("{title} created", "{title} updated", "Error saving {title}") and the
   * heading, when it is not the registry's label.
   */
  title?: string;
  /** Headings, when they differ from the title (e.g. Add Patient / Edit Patient). */
  createTitle?: string;
  editTitle?: string;
  /**
   * The blank record, the normaliser applied on every change (e.g. codes forced upper case and cut,
   * spec §5) and the validator that runs before anything is sent: the registry's rules unless given.
   */
  empty?: () => T;
  normalize?: (data: T) => T;
  validate?: (data: T) => FieldErrors;
  /** What is sent, made from the form data on save (e.g. the patient's phones normalised, the active site). */
  prepare?: (data: T) => T;
  /** A list of fields, or a render function for forms with their own layout. */
  fields: FieldSpec[] | ((form: FormApi<T>, save: SaveState) => ReactNode);
  /** Toast texts when they differ from "{title} created" / "{title} updated" and "Error saving {title}". */
  savedText?: string;
  saveErrorText?: string;
  /** A banner shown while the errors of a failed save remain (e.g. "Please correct the errors!"). */
  invalidBanner?: string;
  /** An error text bar at the top of the form saying why the last save failed (spec §2.5). */
  errorBar?: boolean;
  /** Runs after a successful save, e.g. to refresh what else shows the record (the site selector). */
  onSaved?: (saved: T) => void;
  /**
   * Where a successful save goes instead of the saved record's edit route (e.g. back to the worklist,
   * or to the saved record's detail).
   */
  afterSaveRoute?: string | null | ((saved: T) => string);
  /**
   * A question to answer before this data is saved (e.g. assigning an inactive patient), or null.
   * Yes saves; No leaves the form as it is.
   */
  confirmSave?: (data: T) => Promise<SaveQuestion | null>;
};

export type SaveQuestion = { title: string; text: string; confirmLabel: string };

/**
 * The record as sent: the form's fields (those of empty()) plus id, uuid and version. Read-only
 * fields a load brings along (names of referenced records, timestamps) stay behind.
 */
function pickEditable<T extends Data>(empty: T, data: T): T {
  const keys = new Set([...Object.keys(empty), "id", "uuid", "version"]);
  return Object.fromEntries(Object.entries(data).filter(([key]) => keys.has(key))) as T;
}

/** What a render function learns about saving: failedSaves counts saves refused for field errors. */
export type SaveState = { failedSaves: number };

/** The record the previous screen just saved, handed over so the edit route needs no reload. */
type SavedState = { saved?: Data };

/**
 * The uuid of the record a create route makes, made once so that a retried save cannot create it
 * twice. `route` names the route's record: its uuid on an edit route, anything else (or nothing) on
 * a create route. The uuid stays when the route moves on to that record's edit route once it is
 * saved (its form, keyed by it, stays too); any other move makes a new one.
 */
export function useNewRecordUuid(resource: ResourceName, route: string | undefined): string {
  const [uuid, setUuid] = useState(() => newUuid(resource));
  const [shown, setShown] = useState(route);
  if (shown !== route) {
    setShown(route);
    if (route !== uuid) setUuid(newUuid(resource));
  }
  return uuid;
}

/**
 * The generic form screen of spec §2.3: create and edit one record with the spec's form state,
 * client validation, server field errors, the version check (409), and the unsaved-changes guard.
 * It is keyed by the record's uuid, a new record's too (made here, so that a retried save cannot
 * create it twice): another record, or another new one, starts afresh, while a record just created
 * keeps its form on its edit route, and what was typed as its save went stays.
 */
export function FormScreen<T extends Data>({ description }: { description: FormDescription<T> }) {
  const { itemId } = useParams();
  const newRecord = useNewRecordUuid(description.resource, itemId);
  return (
    <RecordForm key={itemId ?? newRecord} description={description} itemId={itemId} newRecord={newRecord} />
  );
}

function RecordForm<T extends Data>({
  description,
  itemId,
  newRecord,
}: {
  description: FormDescription<T>;
  itemId?: string;
  /** The uuid a new record gets. */
  newRecord: string;
}) {
  const { resource, title = resourceTitle(resource, "record") } = description;
  const rules = resourceRules[resource] as unknown as FormRules<T>;
  const empty = description.empty ?? rules.empty;
  const normalize = description.normalize ?? rules.normalize;
  const validate = description.validate ?? rules.validate;
  const navigate = useNavigate();
  const location = useLocation();
  const navigationType = useNavigationType();
  // Only right after the save (a replace); a reload or back/forward reads the record afresh.
  const handedOver = navigationType === "REPLACE" ? (location.state as SavedState | null)?.saved : undefined;
  const savedHere = handedOver && handedOver.uuid === itemId ? (handedOver as T) : undefined;

  const form = useFormState<T>(() => savedHere ?? { ...empty(), uuid: newRecord }, {
    normalize,
  });

  const record = useQuery({
    queryKey: queryKeys.form(resource, itemId),
    queryFn: () => api.get<T>(`${resource}/${itemId}`),
    enabled: Boolean(itemId) && !savedHere,
    // The form owns the data once loaded: never replace the user's edits in the background.
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const { setFetched } = form;
  useEffect(() => {
    if (record.data) setFetched(record.data);
  }, [record.data, setFetched]);
  // A record the user may not see (another site's) or that is gone answers 404: not found, not an
  // empty form that would save a new record under its uuid.
  const notFound = record.error instanceof ApiError && record.error.status === 404;
  useEffect(() => {
    if (record.error && !notFound)
      toast({ title: `Error loading data: ${record.error.message}`, variant: "destructive" });
  }, [record.error, notFound]);

  const loading = record.isFetching;
  const [question, setQuestion] = useState<{ ask: SaveQuestion; data: T } | null>(null);
  const knownFields = Array.isArray(description.fields) ? description.fields.map((f) => f.name) : null;
  // The toast about a save's field errors, closed once they are corrected.
  const fieldErrorsToast = useRef<number | null>(null);
  const hasErrors = Object.keys(form.errors).length > 0;
  useEffect(() => {
    if (!hasErrors && fieldErrorsToast.current !== null) {
      dismissToast(fieldErrorsToast.current);
      fieldErrorsToast.current = null;
    }
  }, [hasErrors]);
  const { ready, saving, send, refuse, failedSaves, saveError, conflictBanner, guard, reasonDialog } =
    useEditor<T>({
      resource,
      form,
      loading,
      loaded: !itemId || Boolean(savedHere) || record.isSuccess,
      reload: async () => (await record.refetch()).data,
      onSaved: (saved, isNew) => {
        toast({
          title: description.savedText ?? `${title} ${isNew ? "created" : "updated"}`,
          variant: "success",
        });
        description.onSaved?.(saved);
        const after = description.afterSaveRoute;
        if (after) navigate(typeof after === "function" ? after(saved) : after, { replace: true });
        else
          navigate(`/${resource}/${saved.uuid}/edit`, {
            replace: true,
            state: { saved } satisfies SavedState,
          });
      },
      onFailed: (error, isNew) => {
        if (error instanceof ApiError && error.isBadRequest && error.fieldErrors.length > 0) {
          // Errors on fields this form does not show would otherwise go unseen.
          const elsewhere = knownFields
            ? error.fieldErrors.filter((e) => !knownFields.includes(e.field)).map((e) => e.message)
            : [];
          fieldErrorsToast.current = toast({
            title: "Invalid field data",
            description: elsewhere.length ? elsewhere.join("; ") : undefined,
            variant: "destructive",
          });
        } else if (!(error instanceof ApiError && error.isConflict && !isNew)) {
          toast({
            title: description.saveErrorText ?? `Error saving ${title}`,
            description: error instanceof Error ? error.message : String(error),
            variant: "destructive",
          });
        }
      },
    });

  const goBack = useGoBack(`/${resource}`);
  const canWrite = useCanWrite(description.resource);

  const editable = (data: T) => pickEditable(empty(), data);
  const save = async () => {
    if (!ready || saving || !canWrite) return;
    const normalized = editable(normalize ? normalize(form.formData) : form.formData);
    const data = description.prepare ? description.prepare(normalized) : normalized;
    const errors = validate(data);
    if (Object.keys(errors).length > 0) {
      refuse(errors);
      document.getElementById(fieldId(Object.keys(errors)[0]))?.focus();
      return;
    }
    const ask = await description.confirmSave?.(data).catch(() => null);
    if (ask) {
      setQuestion({ ask, data });
      return;
    }
    await send(data);
  };

  // Ctrl+S / Cmd+S saves, as in a desktop editor.
  const saveRef = useRef(save);
  saveRef.current = save;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        void saveRef.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };

  if (notFound) return <NotFoundPage title={`${title} not found`} />;

  const heading = itemId ? (description.editTitle ?? title) : (description.createTitle ?? title);

  return (
    <Panel className="relative">
      <form onSubmit={onSubmit} noValidate aria-label={heading}>
        <PanelHeader title={heading} onBack={goBack}>
          {form.unsaved && canWrite && (
            <Button variant="secondary" onClick={form.reset}>
              <RotateCcw aria-hidden="true" className="size-4" />
              Reset
            </Button>
          )}
          <Button type="submit" disabled={!ready || saving || !canWrite}>
            <Save aria-hidden="true" className="size-4" />
            Save
          </Button>
        </PanelHeader>

        {!canWrite && (
          <Banner role="note" tone="note" className="mx-4 mt-4">
            Only administrators can change these records.
          </Banner>
        )}
        {conflictBanner}

        {description.errorBar && saveError && (
          <Banner role="alert" tone="error" className="mx-4 mt-4">
            {saveError.text}
          </Banner>
        )}

        {description.invalidBanner && failedSaves > 0 && Object.keys(form.errors).length > 0 && (
          <Banner role="alert" tone="error" className="mx-4 mt-4">
            {description.invalidBanner}
          </Banner>
        )}

        {/* Someone who may not save gets every field read-only (a disabled fieldset reaches every
            control, custom layouts too), so nothing can be typed that could not be kept; so does
            everyone while the record loads, as what arrives would replace what was typed. */}
        <fieldset disabled={!canWrite || loading} className="flex min-w-0 flex-col gap-4 p-4">
          {Array.isArray(description.fields)
            ? description.fields.map((spec) => <FormField key={spec.name} spec={spec} form={form} />)
            : description.fields(form, { failedSaves })}
        </fieldset>
      </form>
      <ConfirmDialog
        open={question !== null}
        title={question?.ask.title ?? ""}
        text={question?.ask.text ?? ""}
        confirmLabel={question?.ask.confirmLabel ?? "Yes"}
        cancelLabel="No"
        onCancel={() => setQuestion(null)}
        onConfirm={() => {
          const data = question?.data;
          setQuestion(null);
          if (data) void send(data);
        }}
      />

      {reasonDialog}

      <LoadingOverlay show={loading} />

      {guard.dialog}
    </Panel>
  );
}
