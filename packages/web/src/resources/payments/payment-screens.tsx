import { useQueries } from "@tanstack/react-query";
import {
  type Currency,
  emptyPayment,
  type FieldErrors,
  financeMessages,
  formatMinor,
  type ListData,
  type Payment,
  type PaymentInput,
  paymentSchema,
  type SiteOption,
  type Statement,
  toMinor,
  validatePayment,
} from "@trialdesk/domain";
import { type RefObject, useMemo, useRef } from "react";
import { Link } from "react-router";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queries";
import { useSession } from "../../app/session";
import { useActiveSite } from "../../app/site";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { FormField, fieldId } from "../../screens/FormFields";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { NoSiteChosen } from "../../screens/site-scoped";
import type { FormApi } from "../../screens/useFormState";
import { Button } from "../../ui/button";
import { Field } from "../../ui/field";
import { Input } from "../../ui/input";
import { Banner, Panel } from "../../ui/panel";
import type { SelectOption } from "../../ui/select";
import { Spinner } from "../../ui/spinner";
import { TableArea, Td, Th } from "../../ui/table";
import {
  Money,
  ProjectAndSite,
  StatementStatusBadge,
  siteIdOf,
  todayIso,
  typedMinor,
  useFinanceProjects,
  useProjectOptions,
} from "../finance/finance-parts";

/**
 * Payments (issue 45): what a sponsor paid a site, allocated to the open statements of the project at
 * the site; what is not allocated stays as unapplied credit, to be allocated later (Edit). Sums are
 * worked out in the currency's minor units (toMinor / formatMinor), never in binary floating point.
 */

const money = (key: "amount" | "allocated" | "unapplied", title: string) => ({
  key,
  title,
  className: "text-right",
  format: (row: Payment) => <Money amount={row[key]} currency={row.currency} />,
});

const describePayment = (row: Payment) => `payment of ${row.receivedDate} for ${row.projectName}`;

const listOf = (siteId: number, projectOptions: SelectOption[]): ListDescription<Payment> => ({
  resource: "payments",
  query: { siteId },
  // Edit allocates an unapplied credit later; never removed.
  options: { add: true, edit: true, view: true, remove: false },
  searchable: false,
  filters: [{ param: "projectId", label: "Project", options: projectOptions }],
  rowClick: (row) => `/payments/${row.uuid}`,
  describe: describePayment,
  columns: [
    { key: "receivedDate", title: "Received date", className: "whitespace-nowrap" },
    { key: "projectName", title: "Project" },
    money("amount", "Amount"),
    money("allocated", "Allocated"),
    money("unapplied", "Unapplied"),
    { key: "reference", title: "Reference" },
  ],
});

export function List() {
  const { site } = useActiveSite();
  const projectOptions = useProjectOptions(site?.id);
  const description = useMemo(() => (site ? listOf(site.id, projectOptions) : null), [site, projectOptions]);
  return description ? <ListScreen description={description} /> : <NoSiteChosen />;
}

type PaymentForm = Partial<PaymentInput>;
/** An allocation as the form holds it (the schema's: a statement's uuid may be null). */
type Allocation = NonNullable<PaymentInput["allocations"]>[number];

/**
 * What the allocations editor knows that the form's rules need on save: the project's currency and
 * how much each open statement can still take.
 */
type Limits = { currency: Currency | null; maxByStatement: Map<number, bigint> };

const amountRule = paymentSchema.shape.amount;

/** An amount's error as typed: its form, then the currency's digits; null when it is an amount. */
function amountError(text: string, currency: Currency | null): string | null {
  const parsed = amountRule.safeParse(text);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? financeMessages.amountRequired;
  if (currency && typedMinor(text, currency) === null) return financeMessages.tooManyDigits;
  return null;
}

/**
 * The domain's rules of a payment, and those of its allocations: each an amount of the currency, more
 * than zero and at most what its statement has open; together at most the payment.
 */
export function validatePaymentForm(data: PaymentForm, limits: Limits): FieldErrors {
  const errors: FieldErrors = { ...validatePayment(data) };
  const { currency } = limits;
  if (!errors.amount && data.amount) {
    const error = amountError(data.amount, currency);
    if (error) errors.amount = error;
  }
  let allocated = 0n;
  let readable = true;
  (data.allocations ?? []).forEach((allocation, index) => {
    const key = `allocations.${index}.amount`;
    const error = amountError(allocation.amount ?? "", currency);
    const minor = error ? null : typedMinor(allocation.amount, currency);
    if (error || minor === null) {
      readable = false;
      if (error) errors[key] = error;
      return;
    }
    const max = limits.maxByStatement.get(allocation.statementId);
    if (minor <= 0n) errors[key] = financeMessages.amountPositive;
    else if (max !== undefined && minor > max) errors[key] = financeMessages.beyondOpen;
    allocated += minor;
  });
  const payment = errors.amount ? null : typedMinor(data.amount, currency);
  if (readable && payment !== null && allocated > payment) errors.allocations = financeMessages.beyondPayment;
  return errors;
}

/** What a statement can still take: its open amount, and what this payment gave it before (an edit). */
const openStatuses = new Set(["SENT", "PARTIALLY_PAID"]);

/** The open statements of the project at the site, and (editing) those this payment already paid. */
function useAllocatable(projectId: number | null, siteId: number | null, allocated: Allocation[]) {
  const ready = projectId !== null && siteId !== null;
  const statuses = ["SENT", "PARTIALLY_PAID", ...(allocated.length > 0 ? ["PAID"] : [])];
  const lists = useQueries({
    queries: statuses.map((status) => {
      const query = {
        projectId: projectId ?? undefined,
        siteId: siteId ?? undefined,
        status,
        page: 1,
        pagesize: 200,
      };
      return {
        queryKey: queryKeys.list("statements", query),
        queryFn: () => api.get<ListData<Statement>>("statements", query),
        enabled: ready,
      };
    }),
  });
  const pending = ready && lists.some((list) => list.isPending);
  const error = lists.find((list) => list.error)?.error ?? null;
  const allocatedIds = new Set(allocated.map((a) => a.statementId));
  const statements = lists
    .flatMap((list) => list.data?.items ?? [])
    .filter((s) => openStatuses.has(s.status) || allocatedIds.has(s.id))
    // The oldest due first: payments settle the oldest debts first.
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.statementDate.localeCompare(b.statementDate));
  return { ready, pending, error, statements };
}

/**
 * The allocations editor: every open statement of the project at the site with an amount to allocate
 * to it and "Allocate the rest"; below, what the allocations add up to and the unapplied rest.
 */
function Allocations({
  form,
  limits,
  currency,
}: {
  form: FormApi<PaymentForm>;
  limits: RefObject<Limits>;
  currency: Currency | null;
}) {
  const { site } = useActiveSite();
  const data = form.formData;
  const allocations = data.allocations ?? [];
  const original = form.originalData.allocations ?? [];
  const { ready, pending, error, statements } = useAllocatable(
    data.projectId ?? null,
    siteIdOf(data, site),
    data.id ? original : [],
  );
  const cur = currency ?? statements[0]?.currency ?? null;

  // What this payment gave each statement when it was loaded: the statement can take it again.
  const before = new Map<number, bigint>();
  if (cur && data.id)
    for (const a of original)
      before.set(a.statementId, (before.get(a.statementId) ?? 0n) + toMinor(a.amount, cur));
  const maxByStatement = new Map<number, bigint>(
    cur ? statements.map((s) => [s.id, toMinor(s.open, cur) + (before.get(s.id) ?? 0n)]) : [],
  );
  limits.current = { currency: cur, maxByStatement };

  const payment = typedMinor(data.amount, cur);
  const minorOf = (a: Allocation) => typedMinor(a.amount, cur) ?? 0n;
  const allocated = allocations.reduce((sum, a) => sum + minorOf(a), 0n);
  const unapplied = payment === null ? null : payment - allocated;

  const setAllocation = (statement: Statement, text: string) => {
    const index = allocations.findIndex((a) => a.statementId === statement.id);
    const next =
      text === ""
        ? allocations.filter((_, i) => i !== index)
        : index >= 0
          ? allocations.map((a, i) => (i === index ? { ...a, amount: text } : a))
          : [...allocations, { statementId: statement.id, statementUuid: statement.uuid, amount: text }];
    form.setValue("allocations", next);
  };
  /** The payment's rest not allocated to the other statements, up to what this one can take. */
  const restFor = (statement: Statement): bigint | null => {
    if (payment === null || !cur) return null;
    const others = allocations
      .filter((a) => a.statementId !== statement.id)
      .reduce((sum, a) => sum + minorOf(a), 0n);
    const max = maxByStatement.get(statement.id) ?? 0n;
    const rest = payment - others;
    const value = rest < max ? rest : max;
    return value > 0n ? value : null;
  };

  return (
    <section aria-labelledby="allocations-title" className="flex flex-col gap-3 md:col-span-2">
      <h2 id="allocations-title" className="text-base font-semibold text-gray-900">
        Allocations
      </h2>
      {!ready ? (
        <p className="text-sm text-gray-600">Choose the project to see its open statements at the site.</p>
      ) : pending ? (
        <Spinner label="Loading..." />
      ) : error ? (
        <Banner role="alert" tone="error">
          Can not load the open statements: {error.message}
        </Banner>
      ) : statements.length === 0 ? (
        <p className="text-sm text-gray-600">
          No open statement of this project at this site: the payment stays as unapplied credit.
        </p>
      ) : (
        <TableArea label="Open statements">
          <thead>
            <tr>
              <Th>Statement date</Th>
              <Th>Due date</Th>
              <Th>Status</Th>
              <Th className="text-right">Gross</Th>
              <Th className="text-right">Open</Th>
              <Th>Allocation</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {statements.map((statement) => {
              const index = allocations.findIndex((a) => a.statementId === statement.id);
              const name = fieldId(index >= 0 ? `allocations.${index}.amount` : `allocation-${statement.id}`);
              const rowError = index >= 0 ? form.errors[`allocations.${index}.amount`] : undefined;
              const rest = restFor(statement);
              // Already given the rest: nothing more to allocate here.
              const given = index >= 0 ? typedMinor(allocations[index].amount, cur) : null;
              const max = maxByStatement.get(statement.id);
              return (
                <tr key={statement.id}>
                  <Td className="whitespace-nowrap">
                    <Link
                      to={`/statements/${statement.uuid}`}
                      className="font-medium text-blue-800 underline-offset-2 hover:underline"
                    >
                      {statement.statementDate}
                    </Link>
                  </Td>
                  <Td className="whitespace-nowrap">{statement.dueDate}</Td>
                  <Td>
                    <StatementStatusBadge
                      status={statement.status}
                      dueDate={statement.dueDate}
                      open={statement.open}
                    />
                  </Td>
                  <Td className="text-right">
                    <Money amount={statement.gross} currency={statement.currency} />
                  </Td>
                  <Td className="text-right">
                    <Money
                      amount={max !== undefined && cur ? formatMinor(max, cur) : statement.open}
                      currency={statement.currency}
                    />
                  </Td>
                  <Td>
                    <Input
                      id={name}
                      aria-label={`Allocation to the statement of ${statement.statementDate}`}
                      aria-invalid={rowError ? true : undefined}
                      aria-describedby={rowError ? `${name}-error` : undefined}
                      invalid={Boolean(rowError)}
                      inputMode="decimal"
                      autoComplete="off"
                      className="w-32"
                      value={index >= 0 ? (allocations[index].amount ?? "") : ""}
                      onChange={(event) => setAllocation(statement, event.target.value)}
                    />
                    {rowError && (
                      <p id={`${name}-error`} className="mt-1 text-xs font-medium text-red-700">
                        {rowError}
                      </p>
                    )}
                  </Td>
                  <Td className="whitespace-nowrap">
                    <Button
                      variant="secondary"
                      disabled={rest === null || rest === given}
                      onClick={() => rest !== null && cur && setAllocation(statement, formatMinor(rest, cur))}
                    >
                      Allocate the rest
                    </Button>
                  </Td>
                </tr>
              );
            })}
          </tbody>
        </TableArea>
      )}
      <dl aria-label="Allocation totals" className="flex flex-wrap gap-x-8 gap-y-1 text-sm">
        <div className="flex gap-2">
          <dt className="font-medium text-gray-600">Allocated</dt>
          <dd className="font-semibold text-gray-900">
            {cur ? <Money amount={formatMinor(allocated, cur)} currency={cur} /> : "—"}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="font-medium text-gray-600">Unapplied</dt>
          <dd
            className={`font-semibold ${unapplied !== null && unapplied < 0n ? "text-red-800" : "text-gray-900"}`}
          >
            {cur && unapplied !== null ? <Money amount={formatMinor(unapplied, cur)} currency={cur} /> : "—"}
          </dd>
        </div>
      </dl>
      {form.errors.allocations ? (
        <Banner role="alert" tone="error">
          {form.errors.allocations}
        </Banner>
      ) : (
        unapplied !== null &&
        unapplied < 0n && (
          <Banner role="status" tone="warning">
            {financeMessages.beyondPayment}
          </Banner>
        )
      )}
    </section>
  );
}

function PaymentFields({ form, limits }: { form: FormApi<PaymentForm>; limits: RefObject<Limits> }) {
  const data = form.formData as PaymentForm & Partial<Pick<Payment, "projectName" | "siteCode">>;
  const projects = useFinanceProjects(null);
  const currency =
    projects.data?.find((p) => p.id === data.projectId)?.finance?.currency ??
    (data.currency as Currency | null | undefined) ??
    null;
  return (
    <div className="grid max-w-4xl grid-cols-1 gap-4 md:grid-cols-2">
      {data.id ? (
        // A payment's project and site stay; its allocations change.
        <>
          <Field id={fieldId("projectId")} label="Project" className="max-w-sm">
            {(control) => (
              <Input {...control} readOnly value={data.projectName ?? ""} className="bg-gray-50" />
            )}
          </Field>
          <Field id={fieldId("siteId")} label="Site" className="max-w-sm">
            {(control) => <Input {...control} readOnly value={data.siteCode ?? ""} className="bg-gray-50" />}
          </Field>
        </>
      ) : (
        <ProjectAndSite form={form} cleared={{ allocations: [] }} />
      )}
      <FormField
        form={form}
        spec={{ name: "receivedDate", label: "Received date", kind: "date", required: true }}
      />
      <FormField
        form={form}
        spec={{
          name: "amount",
          label: "Amount",
          required: true,
          hint: currency ? `In ${currency}` : undefined,
        }}
      />
      <FormField form={form} spec={{ name: "reference", label: "Reference", maxLength: 100 }} />
      <Allocations form={form} limits={limits} currency={currency} />
    </div>
  );
}

const formOf = (
  site: SiteOption | null,
  admin: boolean,
  limits: RefObject<Limits>,
): FormDescription<PaymentForm> => ({
  resource: "payments",
  createTitle: "Record payment",
  editTitle: "Payment",
  empty: () => ({ ...emptyPayment(), receivedDate: todayIso() }),
  // A new payment is the active site's for staff; an administrator's choice is the active one unless changed.
  prepare: (data) =>
    data.id ? data : { ...data, siteId: admin ? siteIdOf(data, site) : (site?.id ?? null) },
  validate: (data) => validatePaymentForm(data, limits.current),
  errorBar: true,
  afterSaveRoute: (saved) => `/payments/${saved.uuid}`,
  fields: (form) => <PaymentFields form={form} limits={limits} />,
});

/** "Record payment", and a payment's edit: its allocations (and date, amount and reference). */
export function Form() {
  const { user } = useSession();
  const { site } = useActiveSite();
  const admin = Boolean(user?.isAdmin);
  const limits = useRef<Limits>({ currency: null, maxByStatement: new Map() });
  const description = useMemo(() => (admin || site ? formOf(site, admin, limits) : null), [site, admin]);
  return description ? <FormScreen description={description} /> : <NoSiteChosen />;
}

type AllocationView = Allocation & { statementDate?: string | null; dueDate?: string | null };

function AllocationTable({ payment }: { payment: Payment }) {
  const allocations = (payment.allocations ?? []) as AllocationView[];
  return (
    <Panel aria-labelledby="payment-allocations-title">
      <h2
        id="payment-allocations-title"
        className="border-b border-gray-200 px-4 py-3 text-base font-semibold text-gray-900"
      >
        Allocations
      </h2>
      <div className="p-4">
        {allocations.length === 0 ? (
          <p className="text-sm text-gray-600">Nothing allocated: the payment is unapplied credit.</p>
        ) : (
          <TableArea label="Allocations">
            <thead>
              <tr>
                <Th>Statement</Th>
                <Th className="text-right">Amount</Th>
              </tr>
            </thead>
            <tbody>
              {allocations.map((a) => (
                <tr key={a.statementId}>
                  <Td>
                    {a.statementUuid ? (
                      <Link
                        to={`/statements/${a.statementUuid}`}
                        className="font-medium text-blue-800 underline-offset-2 hover:underline"
                      >
                        {a.statementDate ? `Statement of ${a.statementDate}` : `Statement ${a.statementId}`}
                      </Link>
                    ) : (
                      `Statement ${a.statementId}`
                    )}
                  </Td>
                  <Td className="text-right">
                    <Money amount={a.amount} currency={payment.currency} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </TableArea>
        )}
      </div>
    </Panel>
  );
}

const detail: DetailDescription<Payment> = {
  resource: "payments",
  rows: [
    { label: "Received date", value: (p) => show(p.receivedDate) },
    { label: "Project", value: (p) => show(p.projectName) },
    { label: "Site", value: (p) => show(p.siteCode) },
    { label: "Amount", value: (p) => <Money amount={p.amount} currency={p.currency} /> },
    { label: "Allocated", value: (p) => <Money amount={p.allocated} currency={p.currency} /> },
    { label: "Unapplied", value: (p) => <Money amount={p.unapplied} currency={p.currency} /> },
    { label: "Reference", value: (p) => show(p.reference) },
  ],
  after: (payment) => <AllocationTable payment={payment} />,
};

export const Detail = () => <DetailScreen description={detail} />;
