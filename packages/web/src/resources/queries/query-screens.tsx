import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  emptyQuery,
  type FieldErrors,
  lookupPageSizes,
  type Query,
  type QueryInput,
  type QueryMessage,
  type QueryStatus,
  queryMessages,
  queryStatuses,
  queryTextMaxLength,
  type SiteOption,
  validateQuery,
} from "@trialdesk/domain";
import { CircleCheck, RotateCcw, Send } from "lucide-react";
import { type FormEvent, useMemo, useState } from "react";
import { Link, Navigate, useParams, useSearchParams } from "react-router";
import { api } from "../../api/client";
import { invalidateResource, queryKeys } from "../../api/queries";
import { useSession } from "../../app/session";
import { useActiveSite, worksInSites } from "../../app/site";
import { toast } from "../../app/toast";
import { type DetailDescription, type DetailRow, DetailScreen, show } from "../../screens/DetailScreen";
import { FormField } from "../../screens/FormFields";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, type ListFilter, ListScreen, type Row } from "../../screens/ListScreen";
import { useCanWrite } from "../../screens/navigation";
import { NoSiteChosen } from "../../screens/site-scoped";
import { useUrlParams } from "../../screens/url-params";
import { saveErrorText } from "../../screens/useEditor";
import type { FormApi } from "../../screens/useFormState";
import { Button } from "../../ui/button";
import { Field } from "../../ui/field";
import { FilterChips } from "../../ui/filter-chips";
import { Banner, Panel } from "../../ui/panel";
import { Spinner } from "../../ui/spinner";
import { chosenQueryStatus, dateOf, QueryStatusBadge, timeOf } from "./query-parts";

/**
 * Queries (issue 44): a monitor's question on a patient visit, answered by the site in a thread of
 * messages. A monitor raises one from the patient visit (Raise query), and closes or reopens it on its
 * detail; staff of the visit's site answer it there. Never edited once asked, never removed.
 */

/** A query as the server answers it: list rows and the record alike (the record adds its thread). */
type QueryRecord = Query & { updatedAt?: string | null };

/** A shortened question for the list; the whole text is the cell's tooltip. */
const shortText = (text: string, max = 60) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

/** An id a link hands over in the URL, or null. */
const positiveId = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

const describeQuery = (row: QueryRecord) => `query on ${row.visitName} of ${row.barcode}`;

/** The studies, by working name (as the deviations list asks). */
const studyFilter: ListFilter = {
  param: "studyId",
  label: "Study",
  lookup: {
    resource: "studies",
    pageSize: lookupPageSizes.studies,
    query: { order: "workingName", direction: "asc" },
    option: (study: Row) => ({ value: study.id, label: study.workingName }),
  },
};

/** The chips of the list, in the order a query goes through; All leaves the status out of the URL. */
const statusChips: { value: QueryStatus | null; label: string }[] = [
  ...queryStatuses.map(({ value, label }) => ({ value, label })),
  { value: null, label: "All" },
];

/**
 * The list: staff see the active site's queries, a monitor those of all their studies (the server
 * scopes them). Queries are raised from a patient visit, so there is no Add; a row opens the detail.
 */
const listOf = (
  site: SiteOption | null,
  chosen: { status: QueryStatus | null; patientVisitId: number | null },
  change: (changes: Record<string, string | null>) => void,
): ListDescription<QueryRecord> => ({
  resource: "queries",
  query: {
    siteId: site?.id,
    status: chosen.status ?? undefined,
    patientVisitId: chosen.patientVisitId ?? undefined,
  },
  options: { add: false, edit: false, view: true, remove: false },
  filters: [studyFilter],
  toolbar: () => (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <FilterChips
        legend="Show queries that are"
        chips={statusChips}
        chosen={chosen.status}
        onChoose={(status) => change({ status })}
      />
      {/* A visit's "open queries" lead here for that visit alone. */}
      {chosen.patientVisitId !== null && (
        <p role="status" className="flex items-center gap-2 text-sm text-gray-700">
          The queries of one patient visit.
          <Button variant="secondary" onClick={() => change({ patientVisitId: null })}>
            Show all queries
          </Button>
        </p>
      )}
    </div>
  ),
  rowClick: (row) => `/queries/${row.uuid}`,
  describe: describeQuery,
  columns: [
    { key: "barcode", title: "Barcode", sortable: true, className: "whitespace-nowrap tabular-nums" },
    { key: "studyName", title: "Study" },
    { key: "visitName", title: "Visit" },
    { key: "visitDate", title: "Visit date", sortable: true, className: "whitespace-nowrap" },
    {
      key: "text",
      title: "Query",
      format: (row) => <span title={row.text}>{shortText(row.text ?? "")}</span>,
    },
    {
      key: "status",
      title: "Status",
      sortable: true,
      format: (row) => <QueryStatusBadge status={row.status} />,
    },
    {
      key: "createdAt",
      title: "Opened",
      sortable: true,
      className: "whitespace-nowrap",
      format: (row) => dateOf(row.createdAt),
    },
    {
      key: "updatedAt",
      title: "Updated",
      sortable: true,
      className: "whitespace-nowrap",
      format: (row) => dateOf(row.updatedAt),
    },
  ],
});

export function List() {
  const { user } = useSession();
  const { site } = useActiveSite();
  const [params, updateParams] = useUrlParams();
  const status = chosenQueryStatus(params.get("status"));
  const patientVisitId = positiveId(params.get("patientVisitId"));
  const monitor = !worksInSites(user);
  const description = useMemo(() => {
    if (!monitor && !site) return null;
    const change = (changes: Record<string, string | null>) => updateParams(changes, { resetPage: true });
    return listOf(monitor ? null : site, { status, patientVisitId }, change);
  }, [monitor, site, status, patientVisitId, updateParams]);
  return description ? <ListScreen description={description} /> : <NoSiteChosen />;
}

/** The patient visit a query is raised on, as the source verification lists it (no patient's name). */
type VisitOfQuery = {
  patientVisitUuid: string;
  barcode: string;
  screenNumber: string | null;
  studyName: string;
  visitName: string;
  visitDate: string | null;
};

function VisitOfQueryPanel({ patientVisitId, error }: { patientVisitId: number | null; error?: string }) {
  const visit = useQuery({
    queryKey: queryKeys.detail("patient-visits", String(patientVisitId), "sdv"),
    queryFn: () => api.get<VisitOfQuery>(`patient-visits/${patientVisitId}`, { format: "sdv" }),
    enabled: patientVisitId !== null,
  });
  const rows: [string, string][] = visit.data
    ? [
        ["Patient barcode", visit.data.barcode],
        ["Study", visit.data.studyName],
        ["Visit", visit.data.visitName],
        ["Visit date", show(visit.data.visitDate)],
      ]
    : [];
  return (
    <section aria-labelledby="query-visit-title" className="flex flex-col gap-2">
      <h2 id="query-visit-title" className="text-base font-semibold text-gray-900">
        Patient visit
      </h2>
      {patientVisitId === null ? (
        <Banner role="alert" tone="error">
          No patient visit chosen: open the visit and choose Raise query there.
        </Banner>
      ) : visit.isPending ? (
        <Spinner label="Loading..." />
      ) : visit.isError ? (
        <Banner role="alert" tone="error">
          Can not load the patient visit: {visit.error.message}
        </Banner>
      ) : (
        <dl className="grid grid-cols-[minmax(8rem,max-content)_1fr] gap-x-6 gap-y-1 text-sm">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-medium text-gray-600">{label}</dt>
              <dd className="text-gray-900">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {error && patientVisitId !== null && <p className="text-xs font-medium text-red-700">{error}</p>}
    </section>
  );
}

type QueryForm = Partial<QueryInput>;

function RaiseQueryFields({ form }: { form: FormApi<QueryForm> }) {
  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <VisitOfQueryPanel
        patientVisitId={form.formData.patientVisitId ?? null}
        error={form.errors.patientVisitId}
      />
      <FormField
        form={form}
        spec={{
          name: "text",
          label: "Query",
          required: true,
          kind: "textarea",
          rows: 5,
          maxLength: queryTextMaxLength,
          width: "full",
        }}
      />
    </div>
  );
}

/** The domain's rules, in the form's words: its field is the Query. */
const validateRaised = (data: QueryForm): FieldErrors => {
  const errors = validateQuery(data);
  return errors.text === queryMessages.textRequired ? { ...errors, text: "Query is required" } : errors;
};

const formOf = (patientVisitId: number | null): FormDescription<QueryForm> => ({
  resource: "queries",
  createTitle: "Raise query",
  empty: () => ({ ...emptyQuery(), patientVisitId }),
  validate: validateRaised,
  errorBar: true,
  savedText: "Query raised",
  afterSaveRoute: (saved) => `/queries/${saved.uuid}`,
  fields: (form) => <RaiseQueryFields form={form} />,
});

/**
 * Raising a query, for monitors: /queries/create?patientVisitId={id}, opened from the patient visit.
 * A query is never edited (its detail closes or reopens it), so its edit route shows the detail.
 */
export function Form() {
  const { itemId } = useParams();
  const [params] = useSearchParams();
  const { user } = useSession();
  const canWrite = useCanWrite("queries");
  const patientVisitId = positiveId(params.get("patientVisitId"));
  const description = useMemo(() => formOf(patientVisitId), [patientVisitId]);
  if (itemId) return <Navigate to={`/queries/${itemId}`} replace />;
  if (user && !canWrite)
    return (
      <Panel className="p-6">
        <p role="status" className="text-base font-medium text-gray-800">
          {queryMessages.monitorsOnly}: the site answers them on the query's page.
        </p>
      </Panel>
    );
  return <FormScreen description={description} />;
}

const authorKinds: Record<QueryMessage["authorKind"], string> = { monitor: "Monitor", site: "Site" };

/** Keeps the query the server answered as the detail shows it, then reads again whatever shows it. */
function useKeepQuery() {
  const queryClient = useQueryClient();
  const { itemId } = useParams();
  return (saved: QueryRecord) => {
    queryClient.setQueryData<QueryRecord>(queryKeys.detail("queries", itemId, "view"), (old) => ({
      ...old,
      ...saved,
      messages: saved.messages ?? old?.messages,
    }));
    void invalidateResource(queryClient, "queries");
  };
}

/** The thread: every message in order, then the box to write the next one. */
function Thread({ query }: { query: QueryRecord }) {
  const keep = useKeepQuery();
  const [text, setText] = useState("");
  const send = useMutation({
    mutationFn: (message: string) =>
      api.post<QueryRecord>(`queries/${query.uuid}/messages`, { text: message }),
    onSuccess: (saved) => {
      setText("");
      keep(saved);
      toast({ title: "Message sent", variant: "success" });
    },
  });
  const closed = query.status === "CLOSED";
  const messages = query.messages ?? [];
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() && !send.isPending) send.mutate(text.trim());
  };
  return (
    <Panel aria-labelledby="thread-title">
      <h2
        id="thread-title"
        className="border-b border-gray-200 px-4 py-3 text-base font-semibold text-gray-900"
      >
        Messages
      </h2>
      <div className="flex flex-col gap-4 p-4 text-sm">
        {messages.length === 0 ? (
          <p className="text-gray-600">No messages yet.</p>
        ) : (
          <ol aria-label="Messages" className="flex flex-col gap-3">
            {messages.map((message, index) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: the thread is append-only, its order is its identity
                key={index}
                className={`rounded-md border px-3 py-2 ${
                  message.authorKind === "monitor"
                    ? "border-blue-100 bg-blue-50"
                    : "border-gray-100 bg-gray-50"
                }`}
              >
                <p className="text-gray-900">
                  <span className="font-medium">{message.authorName}</span>{" "}
                  <span className="text-gray-700">
                    ({authorKinds[message.authorKind] ?? message.authorKind})
                  </span>{" "}
                  <time dateTime={message.at} className="text-gray-700">
                    {timeOf(message.at)}
                  </time>
                </p>
                <p className="mt-1 whitespace-pre-wrap break-words text-gray-900">{message.text}</p>
              </li>
            ))}
          </ol>
        )}
        {closed ? (
          <Banner role="note" tone="note">
            {queryMessages.closed}.
          </Banner>
        ) : (
          <form onSubmit={onSubmit} aria-label="New message" className="flex flex-col gap-2">
            <Field id="query-message" label="Message">
              {(control) => (
                <textarea
                  {...control}
                  rows={3}
                  maxLength={queryTextMaxLength}
                  value={text}
                  onChange={(event) => setText(event.target.value)}
                  className="block w-full rounded-md border border-gray-300 px-2.5 py-1.5 text-sm shadow-sm focus:outline-2 focus:outline-blue-600"
                />
              )}
            </Field>
            {send.isError && (
              <Banner role="alert" tone="error">
                {saveErrorText(send.error)}
              </Banner>
            )}
            <div>
              <Button type="submit" disabled={!text.trim() || send.isPending} aria-busy={send.isPending}>
                {send.isPending ? <Spinner /> : <Send aria-hidden="true" className="size-4" />}
                Send
              </Button>
            </div>
          </form>
        )}
      </div>
    </Panel>
  );
}

/** A monitor's Close query (open or answered) or Reopen query (closed): a save of the status alone. */
function StatusAction({ query }: { query: QueryRecord }) {
  const keep = useKeepQuery();
  const closing = query.status !== "CLOSED";
  const change = useMutation({
    mutationFn: () =>
      api.put<QueryRecord>(`queries/${query.uuid}`, {
        id: query.id,
        uuid: query.uuid,
        version: query.version,
        patientVisitId: query.patientVisitId,
        text: query.text,
        status: closing ? "CLOSED" : "OPEN",
      }),
    onSuccess: (saved) => {
      keep(saved);
      toast({ title: closing ? "Query closed" : "Query reopened", variant: "success" });
    },
    onError: (error) =>
      toast({
        title: closing ? "Can not close the query" : "Can not reopen the query",
        description: error.message,
        variant: "destructive",
      }),
  });
  return (
    <Button
      variant={closing ? "primary" : "secondary"}
      onClick={() => change.mutate()}
      disabled={change.isPending}
      aria-busy={change.isPending}
    >
      {change.isPending ? (
        <Spinner />
      ) : closing ? (
        <CircleCheck aria-hidden="true" className="size-4" />
      ) : (
        <RotateCcw aria-hidden="true" className="size-4" />
      )}
      {closing ? "Close query" : "Reopen query"}
    </Button>
  );
}

const rows: DetailRow<QueryRecord>[] = [
  { label: "Status", value: (d) => (d.status ? <QueryStatusBadge status={d.status} /> : "—") },
  { label: "Patient barcode", value: (d) => show(d.barcode) },
  { label: "Study", value: (d) => show(d.studyName) },
  {
    label: "Visit",
    value: (d) =>
      d.visitName ? (
        <Link
          to={`/patient-visits/${d.patientVisitUuid}`}
          className="font-medium text-blue-800 underline-offset-2 hover:underline"
        >
          {d.visitDate ? `${d.visitName}, ${d.visitDate}` : d.visitName}
        </Link>
      ) : (
        "—"
      ),
  },
  { label: "Opened by", value: (d) => show(d.openedByName) },
  { label: "Opened", value: (d) => show(timeOf(d.createdAt)) },
  { label: "Query", value: (d) => <span className="whitespace-pre-wrap">{show(d.text)}</span> },
];

function QueryDetail() {
  const { user } = useSession();
  const monitor = !worksInSites(user);
  const description = useMemo<DetailDescription<QueryRecord>>(
    () => ({
      resource: "queries",
      rows,
      editable: false,
      actions: monitor ? (query) => <StatusAction query={query} /> : undefined,
      after: (query) => <Thread query={query} />,
    }),
    [monitor],
  );
  return <DetailScreen description={description} />;
}

export function Detail() {
  return <QueryDetail />;
}
