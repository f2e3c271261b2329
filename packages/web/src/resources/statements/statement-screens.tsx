import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type Currency,
  financeMessages,
  type SiteOption,
  type Statement,
  type StatementInput,
  type StatementLine,
  type StatementStatus,
  statementLineSchema,
  statementSchema,
  statementStatuses,
  statementStatusValues,
} from "@trialdesk/domain";
import { Ban, Plus, Printer, Save, Send } from "lucide-react";
import { type FormEvent, useMemo, useState } from "react";
import { Navigate, useParams } from "react-router";
import { ApiError, api } from "../../api/client";
import { invalidateResource, queryKeys } from "../../api/queries";
import { useSession } from "../../app/session";
import { useActiveSite } from "../../app/site";
import { toast } from "../../app/toast";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { FormField } from "../../screens/FormFields";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { useCanWrite } from "../../screens/navigation";
import { NoSiteChosen } from "../../screens/site-scoped";
import { useUrlParams } from "../../screens/url-params";
import type { FormApi } from "../../screens/useFormState";
import { Button } from "../../ui/button";
import { ConfirmDialog } from "../../ui/dialog";
import { Field } from "../../ui/field";
import { FilterChips } from "../../ui/filter-chips";
import { Input } from "../../ui/input";
import { Panel } from "../../ui/panel";
import type { SelectOption } from "../../ui/select";
import { Spinner } from "../../ui/spinner";
import { Td, Th } from "../../ui/table";
import {
  chosenOf,
  Money,
  ProjectAndSite,
  StatementStatusBadge,
  shownAmount,
  siteIdOf,
  todayIso,
  typedMinor,
  useProjectOptions,
} from "../finance/finance-parts";

/**
 * Statements (issue 45): what a site bills a sponsor for a project. Trialdesk prepares one from every
 * billable earning of the site up to a day (a DRAFT, to which manual lines such as a screen-failure fee
 * or a credit are added), then it is sent — and never changes again: a wrong one is voided and a new
 * one prepared. Payments make it partially paid or paid. Invoices stay in the accounting system; its
 * number is recorded here.
 */

/** The chips in the order a statement goes through; All leaves the status out of the URL. */
const statusChips: { value: StatementStatus | null; label: string }[] = [
  { value: null, label: "All" },
  ...statementStatuses.map(({ value, label }) => ({ value, label })),
];

const money = (key: keyof Statement, title: string) => ({
  key,
  title,
  className: "text-right",
  format: (row: Statement) => <Money amount={row[key] as string} currency={row.currency} />,
});

const describeStatement = (row: Statement) => `statement of ${row.statementDate} for ${row.projectName}`;

const listOf = (
  siteId: number,
  status: StatementStatus | null,
  projectOptions: SelectOption[],
  change: (changes: Record<string, string | null>) => void,
): ListDescription<Statement> => ({
  resource: "statements",
  query: { siteId, status: status ?? undefined },
  // Never edited as a form (its detail sends, voids and adds lines), never removed: voided.
  options: { add: true, edit: false, view: true, remove: false },
  searchable: false,
  filters: [{ param: "projectId", label: "Project", options: projectOptions }],
  toolbar: () => (
    <FilterChips
      legend="Show statements that are"
      chips={statusChips}
      chosen={status}
      onChoose={(next) => change({ status: next })}
    />
  ),
  rowClick: (row) => `/statements/${row.uuid}`,
  describe: describeStatement,
  columns: [
    { key: "statementDate", title: "Statement date", className: "whitespace-nowrap" },
    { key: "projectName", title: "Project" },
    { key: "periodTo", title: "Period to", className: "whitespace-nowrap" },
    money("net", "Net"),
    money("vat", "VAT"),
    money("gross", "Gross"),
    money("open", "Open"),
    { key: "dueDate", title: "Due date", className: "whitespace-nowrap" },
    {
      key: "status",
      title: "Status",
      format: (row) => <StatementStatusBadge status={row.status} dueDate={row.dueDate} open={row.open} />,
    },
    { key: "externalInvoiceNumber", title: "External invoice number" },
  ],
});

export function List() {
  const { site } = useActiveSite();
  const [params, updateParams] = useUrlParams();
  const projectOptions = useProjectOptions(site?.id);
  const status = chosenOf(statementStatusValues, params.get("status"));
  const description = useMemo(() => {
    if (!site) return null;
    const change = (changes: Record<string, string | null>) => updateParams(changes, { resetPage: true });
    return listOf(site.id, status, projectOptions, change);
  }, [site, status, projectOptions, updateParams]);
  return description ? <ListScreen description={description} /> : <NoSiteChosen />;
}

type StatementForm = Partial<StatementInput>;

function StatementFields({ form, admin }: { form: FormApi<StatementForm>; admin: boolean }) {
  return (
    <div className="grid max-w-3xl grid-cols-1 gap-4 md:grid-cols-2">
      <ProjectAndSite form={form} />
      <FormField form={form} spec={{ name: "periodTo", label: "Period to", kind: "date", required: true }} />
      <FormField
        form={form}
        spec={{ name: "statementDate", label: "Statement date", kind: "date", required: true }}
      />
      <div className="md:col-span-2">
        <FormField
          form={form}
          spec={{
            name: "closeOut",
            label: "Close-out statement",
            kind: "checkbox",
            hint: "Also releases the held-back amounts. Every assignment of the project at the site must be closed first.",
          }}
        />
      </div>
      <p role="note" className="text-sm text-gray-700 md:col-span-2">
        Every billable earning of the {admin ? "chosen" : "active"} site up to Period to goes on it, as a
        draft: check its lines, add a manual line if one is due (a screen-failure fee, a credit), then send
        it. The statement date and the project's payment days set its due date.
      </p>
    </div>
  );
}

const formOf = (site: SiteOption | null, admin: boolean): FormDescription<StatementForm> => ({
  resource: "statements",
  createTitle: "New statement",
  empty: () => ({
    projectId: null,
    siteId: null,
    periodTo: null,
    statementDate: todayIso(),
    closeOut: false,
  }),
  // Staff prepare statements of the active site; an administrator's choice is the active site unless changed.
  prepare: (data) => ({ ...data, siteId: admin ? siteIdOf(data, site) : (site?.id ?? null) }),
  errorBar: true,
  savedText: "Statement prepared",
  afterSaveRoute: (saved) => `/statements/${saved.uuid}`,
  fields: (form) => <StatementFields form={form} admin={admin} />,
});

/**
 * "New statement": project, period and date; the server puts the lines on it. A statement is never
 * edited as a form, so its edit route shows its detail.
 */
export function Form() {
  const { itemId } = useParams();
  const { user } = useSession();
  const { site } = useActiveSite();
  const admin = Boolean(user?.isAdmin);
  const description = useMemo(() => (admin || site ? formOf(site, admin) : null), [site, admin]);
  if (itemId) return <Navigate to={`/statements/${itemId}`} replace />;
  return description ? <FormScreen description={description} /> : <NoSiteChosen />;
}

/** The fields a statement is sent back with (the schema's): the record as read, with the changes. */
const statementKeys = new Set(Object.keys(statementSchema.shape));
const recordBack = (statement: Statement, changes: Partial<Statement>) =>
  Object.fromEntries(Object.entries({ ...statement, ...changes }).filter(([key]) => statementKeys.has(key)));

/** Keeps the statement the server answered as the detail shows it, then reads again whatever shows it. */
function useKeepStatement() {
  const queryClient = useQueryClient();
  const { itemId } = useParams();
  return (saved: Statement) => {
    queryClient.setQueryData<Statement>(queryKeys.detail("statements", itemId, "view"), (old) => ({
      ...old,
      ...saved,
      lines: saved.lines ?? old?.lines,
    }));
    void invalidateResource(queryClient, "statements");
  };
}

/** A PUT of the statement with some changes (status, external invoice number). */
function useChangeStatement(statement: Statement, done: string, failed: string) {
  const keep = useKeepStatement();
  return useMutation({
    mutationFn: (changes: Partial<Statement>) =>
      api.put<Statement>(`statements/${statement.uuid}`, recordBack(statement, changes)),
    onSuccess: (saved) => {
      keep(saved);
      toast({ title: done, variant: "success" });
    },
    onError: (error) => toast({ title: failed, description: error.message, variant: "destructive" }),
  });
}

/** Send (a draft), Void (a draft or a statement sent and unpaid), each confirmed, and Print. */
function StatementActions({ statement }: { statement: Statement }) {
  const canWrite = useCanWrite("statements");
  const [asking, setAsking] = useState<"send" | "void" | null>(null);
  const send = useChangeStatement(statement, "Statement sent", "Can not send the statement");
  const voiding = useChangeStatement(statement, "Statement voided", "Can not void the statement");
  const busy = send.isPending || voiding.isPending;
  const draft = statement.status === "DRAFT";
  const voidable = draft || statement.status === "SENT";
  return (
    <>
      {canWrite && draft && (
        <Button onClick={() => setAsking("send")} disabled={busy} aria-busy={send.isPending}>
          {send.isPending ? <Spinner /> : <Send aria-hidden="true" className="size-4" />}
          Send
        </Button>
      )}
      {canWrite && voidable && (
        <Button
          variant="secondary"
          onClick={() => setAsking("void")}
          disabled={busy}
          aria-busy={voiding.isPending}
        >
          {voiding.isPending ? <Spinner /> : <Ban aria-hidden="true" className="size-4" />}
          Void
        </Button>
      )}
      <Button variant="secondary" onClick={() => window.print()}>
        <Printer aria-hidden="true" className="size-4" />
        Print
      </Button>
      <ConfirmDialog
        open={asking === "send"}
        title="Send statement"
        text={`${financeMessages.statementSent}. Send it to the sponsor as it is?`}
        confirmLabel="Send"
        cancelLabel="Cancel"
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          setAsking(null);
          send.mutate({ status: "SENT" });
        }}
      />
      <ConfirmDialog
        open={asking === "void"}
        title="Void statement"
        text="Its earnings become billable again; the void statement stays on record. Void it?"
        confirmLabel="Void"
        cancelLabel="Cancel"
        destructive
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          setAsking(null);
          voiding.mutate({ status: "VOID" });
        }}
      />
    </>
  );
}

/** The lines and what they add up to: Net, VAT at the statement's rate, Gross, Paid and Open. */
function Lines({ statement }: { statement: Statement }) {
  const lines: StatementLine[] = statement.lines ?? [];
  const { currency } = statement;
  const totals: [string, string][] = [
    ["Net", statement.net],
    [`VAT (${statement.vatPercent} %)`, statement.vat],
    ["Gross", statement.gross],
    ["Paid", statement.paid],
    ...(isZero(statement.writtenOff) ? [] : [["Written off", statement.writtenOff] as [string, string]]),
    ["Open", statement.open],
  ];
  return (
    <Panel aria-labelledby="statement-lines-title">
      <h2
        id="statement-lines-title"
        className="border-b border-gray-200 px-4 py-3 text-base font-semibold text-gray-900"
      >
        Lines
      </h2>
      <div className="flex flex-col gap-4 p-4">
        {/* No height limit (unlike a list's table): a printed statement shows every line. */}
        <div className="overflow-x-auto rounded-md border border-gray-200 print:overflow-visible">
          <table aria-label="Lines" className="w-full border-collapse text-left text-sm">
            <thead>
              <tr>
                <Th>Service date</Th>
                <Th>Description</Th>
                <Th className="text-right">Amount</Th>
              </tr>
            </thead>
            <tbody>
              {lines.length === 0 ? (
                <tr>
                  <Td colSpan={3} className="py-4 text-center text-gray-600">
                    No lines
                  </Td>
                </tr>
              ) : (
                lines.map((line) => (
                  <tr key={line.id}>
                    <Td className="whitespace-nowrap">{line.serviceDate ?? ""}</Td>
                    <Td>{line.description}</Td>
                    <Td className="text-right">
                      <Money amount={line.amount} currency={currency} />
                    </Td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <dl
          aria-label="Totals"
          className="ml-auto grid grid-cols-[max-content_max-content] gap-x-6 gap-y-1 text-sm"
        >
          {totals.map(([label, amount]) => (
            <div key={label} className="contents">
              <dt className="font-medium text-gray-600">{label}</dt>
              <dd className="text-right font-semibold text-gray-900">
                <Money amount={amount} currency={currency} />
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </Panel>
  );
}

const isZero = (amount: string | null | undefined) => !amount || /^-?0*(\.0*)?$/.test(amount);

/**
 * Write off the open rest of a short payment, with its reason (a sent statement, once): the statement
 * then counts as paid. Confirmed with the amount.
 */
function WriteOff({ statement }: { statement: Statement }) {
  const keep = useKeepStatement();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [asking, setAsking] = useState(false);
  const writeOff = useMutation({
    mutationFn: (text: string) =>
      api.post<Statement>(`statements/${statement.uuid}/write-off`, { reason: text }),
    onSuccess: (saved) => {
      setReason("");
      keep(saved);
      toast({ title: "Open amount written off", variant: "success" });
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.isBadRequest && failure.fieldErrors.length > 0)
        setError(failure.fieldErrors[0]?.message);
      else toast({ title: "Can not write it off", description: failure.message, variant: "destructive" });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (writeOff.isPending) return;
    const missing = reason.trim() ? undefined : financeMessages.writeOffReasonRequired;
    setError(missing);
    if (!missing) setAsking(true);
  };
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Write off the open amount"
      className="flex flex-wrap items-start gap-3 border-t border-gray-200 p-4"
    >
      <Field
        id="write-off-reason"
        label="Reason for the write-off"
        hint="The sponsor paid short and the rest will not be asked for (bank charges, an agreed discount)."
        error={error}
        className="w-96"
      >
        {(control) => (
          <Input
            {...control}
            maxLength={500}
            value={reason}
            invalid={Boolean(error)}
            onChange={(event) => setReason(event.target.value)}
          />
        )}
      </Field>
      <Button
        type="submit"
        variant="secondary"
        className="mt-6"
        disabled={writeOff.isPending}
        aria-busy={writeOff.isPending}
      >
        {writeOff.isPending ? <Spinner /> : <Ban aria-hidden="true" className="size-4" />}
        Write off
      </Button>
      <ConfirmDialog
        open={asking}
        title="Write off the open amount"
        text={`Write off ${shownAmount(statement.open, statement.currency)} ${statement.currency}? The statement then counts as paid; this is done once.`}
        confirmLabel="Write off"
        cancelLabel="Cancel"
        destructive
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          writeOff.mutate(reason.trim());
        }}
      />
    </form>
  );
}

type LineErrors = { description?: string; amount?: string };

/** The domain's rules of a manual line, in the currency's digits. */
function lineErrors(description: string, amount: string, currency: Currency): LineErrors {
  const errors: LineErrors = {};
  if (!description.trim()) errors.description = financeMessages.descriptionRequired;
  if (!amount.trim()) errors.amount = financeMessages.amountRequired;
  else {
    const parsed = statementLineSchema.shape.amount.safeParse(amount);
    if (!parsed.success) errors.amount = parsed.error.issues[0]?.message;
    else if (typedMinor(amount, currency) === null) errors.amount = financeMessages.tooManyDigits;
  }
  return errors;
}

/** Add line, while the statement is a draft: a description and an amount (a credit is negative). */
function AddLine({ statement }: { statement: Statement }) {
  const keep = useKeepStatement();
  const [description, setDescription] = useState("");
  const [amount, setAmount] = useState("");
  const [errors, setErrors] = useState<LineErrors>({});
  const add = useMutation({
    mutationFn: (line: { description: string; amount: string }) =>
      api.post<Statement>(`statements/${statement.uuid}/lines`, line),
    onSuccess: (saved) => {
      setDescription("");
      setAmount("");
      setErrors({});
      keep(saved);
      toast({ title: "Line added", variant: "success" });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.isBadRequest && error.fieldErrors.length > 0)
        setErrors(Object.fromEntries(error.fieldErrors.map((e) => [e.field, e.message])));
      else toast({ title: "Can not add the line", description: error.message, variant: "destructive" });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    const found = lineErrors(description, amount, statement.currency);
    setErrors(found);
    if (Object.keys(found).length === 0)
      add.mutate({ description: description.trim(), amount: amount.trim() });
  };
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="New line"
      className="flex flex-wrap items-start gap-3 border-t border-gray-200 p-4"
    >
      <Field id="line-description" label="Description" error={errors.description} className="w-80">
        {(control) => (
          <Input
            {...control}
            maxLength={200}
            value={description}
            invalid={Boolean(errors.description)}
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      </Field>
      <Field
        id="line-amount"
        label="Amount"
        hint={`In ${statement.currency}; a credit is negative, e.g. -50.00`}
        error={errors.amount}
        className="w-56"
      >
        {(control) => (
          <Input
            {...control}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            invalid={Boolean(errors.amount)}
            onChange={(event) => setAmount(event.target.value)}
          />
        )}
      </Field>
      <Button type="submit" className="mt-6" disabled={add.isPending} aria-busy={add.isPending}>
        {add.isPending ? <Spinner /> : <Plus aria-hidden="true" className="size-4" />}
        Add line
      </Button>
    </form>
  );
}

/** The number of the invoice the accounting system made of the statement, with its own Save. */
function ExternalInvoiceNumber({ statement }: { statement: Statement }) {
  const [text, setText] = useState(statement.externalInvoiceNumber ?? "");
  const save = useChangeStatement(statement, "External invoice number saved", "Can not save the number");
  const changed = text.trim() !== (statement.externalInvoiceNumber ?? "");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (changed && !save.isPending) save.mutate({ externalInvoiceNumber: text.trim() || null });
  };
  return (
    <form
      onSubmit={onSubmit}
      aria-label="Record the external invoice number"
      className="flex flex-wrap items-end gap-3 border-t border-gray-200 p-4"
    >
      <Field id="external-invoice-number" label="External invoice number" className="w-80">
        {(control) => (
          <Input {...control} value={text} maxLength={50} onChange={(event) => setText(event.target.value)} />
        )}
      </Field>
      <Button
        type="submit"
        variant="secondary"
        disabled={!changed || save.isPending}
        aria-busy={save.isPending}
      >
        {save.isPending ? <Spinner /> : <Save aria-hidden="true" className="size-4" />}
        Save
      </Button>
    </form>
  );
}

/** What is done to a statement below its lines: Add line on a draft, and the invoice number. */
function StatementWork({ statement }: { statement: Statement }) {
  const canWrite = useCanWrite("statements");
  if (!canWrite || statement.status === "VOID") return null;
  return (
    <Panel aria-label="Statement work" className="print:hidden">
      {statement.status === "DRAFT" && <AddLine statement={statement} />}
      {(statement.status === "SENT" || statement.status === "PARTIALLY_PAID") &&
        !isZero(statement.open) &&
        isZero(statement.writtenOff) && <WriteOff statement={statement} />}
      <ExternalInvoiceNumber key={statement.externalInvoiceNumber ?? ""} statement={statement} />
    </Panel>
  );
}

const detail: DetailDescription<Statement> = {
  resource: "statements",
  editable: false,
  rows: [
    {
      label: "Status",
      value: (s) => <StatementStatusBadge status={s.status} dueDate={s.dueDate} open={s.open} />,
    },
    { label: "Project", value: (s) => show(s.projectName) },
    { label: "Site", value: (s) => show(s.siteCode) },
    { label: "Period to", value: (s) => show(s.periodTo) },
    { label: "Statement date", value: (s) => show(s.statementDate) },
    { label: "Due date", value: (s) => show(s.dueDate) },
    { label: "Payment days", value: (s) => show(s.paymentDays) },
    { label: "Currency", value: (s) => show(s.currency) },
    { label: "Gross", value: (s) => <Money amount={s.gross} currency={s.currency} /> },
    { label: "Open", value: (s) => <Money amount={s.open} currency={s.currency} /> },
    {
      label: "Close-out statement",
      value: (s) => (s.closeOut ? "Yes: it releases the held-back amounts" : "No"),
    },
    {
      label: "Write-off",
      value: (s) =>
        isZero(s.writtenOff) ? (
          "—"
        ) : (
          <>
            <Money amount={s.writtenOff} currency={s.currency} /> — {s.writeOffReason}
          </>
        ),
    },
    { label: "External invoice number", value: (s) => show(s.externalInvoiceNumber) },
  ],
  actions: (statement) => <StatementActions statement={statement} />,
  after: (statement) => (
    <>
      <Lines statement={statement} />
      <StatementWork statement={statement} />
    </>
  ),
};

/**
 * The statement: its header, lines and totals, Send / Void / Print and, below, Add line and the
 * external invoice number. Printed, the frame, the buttons and the history stay off the page.
 */
export function Detail() {
  return (
    <div className="print:[&_[aria-labelledby=history-title]]:hidden">
      <DetailScreen description={detail} />
    </div>
  );
}
