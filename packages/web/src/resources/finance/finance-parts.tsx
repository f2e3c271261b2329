import { useQuery } from "@tanstack/react-query";
import {
  type Currency,
  currencyDigits,
  type EarningState,
  earningStates,
  formatMinor,
  isValidIsoDate,
  lookupPageSizes,
  optionLabel,
  type SiteOption,
  type StatementStatus,
  statementStatuses,
  toIsoDate,
  toMinor,
} from "@trialdesk/domain";
import { type ReactNode, useCallback, useId, useMemo, useState } from "react";
import { api } from "../../api/client";
import { type LookupSource, queryKeys, useLookupRows } from "../../api/queries";
import { useSession } from "../../app/session";
import { siteLabel, useActiveSite } from "../../app/site";
import { fieldId } from "../../screens/FormFields";
import type { FormApi } from "../../screens/useFormState";
import { Badge, type BadgeColor } from "../../ui/badge";
import { DatePicker } from "../../ui/date-picker";
import { Field } from "../../ui/field";
import { Input } from "../../ui/input";
import { Banner } from "../../ui/panel";
import { SearchableSelect } from "../../ui/select";
import { Spinner } from "../../ui/spinner";
import { siteLookup } from "../sites/site-lookup";

/**
 * What the finance screens share (issue 45): amounts as the wire writes them (decimal strings in the
 * currency's digits, never binary floating point), the project and site choices, the state and status
 * badges, the filter chips and the summary of what a project has earned.
 */

/** Whether a text names a currency the domain knows. */
const isCurrency = (value: unknown): value is Currency =>
  typeof value === "string" && Object.hasOwn(currencyDigits, value);

/**
 * An amount as the screens show it: in the currency's digits (through its minor units), the thousands
 * grouped: "2255.52" → "2,255.52", HUF "1001" → "1,001", "-50" EUR → "-50.00". Text that is not an
 * amount is shown as it came.
 */
export function shownAmount(value: string | null | undefined, currency?: Currency | null): string {
  if (value === null || value === undefined || value === "") return "";
  let text = value;
  if (isCurrency(currency)) {
    try {
      text = formatMinor(toMinor(value, currency), currency);
    } catch {
      return value;
    }
  }
  const negative = text.startsWith("-");
  const [whole, fraction] = (negative ? text.slice(1) : text).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}${fraction === undefined ? "" : `.${fraction}`}`;
}

/** An amount with its currency, as one unbroken cell: "2,255.52 EUR". */
export function Money({
  amount,
  currency,
}: {
  amount: string | null | undefined;
  currency?: Currency | null;
}) {
  if (amount === null || amount === undefined || amount === "") return <>—</>;
  return (
    <span className="whitespace-nowrap tabular-nums">
      {shownAmount(amount, currency)}
      {currency && <span className="text-xs text-gray-600"> {currency}</span>}
    </span>
  );
}

/** Minor units of an amount as typed, or null when it is no amount in the currency's digits. */
export function typedMinor(value: string | null | undefined, currency: Currency | null): bigint | null {
  const text = (value ?? "").trim();
  if (!currency || !/^-?\d{1,10}(\.\d{1,2})?$/.test(text)) return null;
  const decimals = text.split(".")[1]?.length ?? 0;
  if (decimals > currencyDigits[currency]) return null;
  return toMinor(text, currency);
}

/** Today as yyyy-MM-dd, the local calendar day (a new statement's date, the aging's As of). */
export const todayIso = () => toIsoDate(new Date());

/** An id a link or filter hands over in the URL, or null. */
export const positiveId = (value: string | null | undefined) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

const earningStateColors: Record<EarningState, BadgeColor> = {
  AWAITING_VERIFICATION: "amber",
  BILLABLE: "blue",
  ON_STATEMENT: "gray",
  PAID: "green",
};
export const earningStateLabel = (state: string | null | undefined) =>
  optionLabel(earningStates, state as EarningState);
export const EarningStateBadge = ({ state }: { state: string | null | undefined }) =>
  state ? (
    <Badge color={earningStateColors[state as EarningState] ?? "gray"}>{earningStateLabel(state)}</Badge>
  ) : null;

const statementStatusColors: Record<StatementStatus, BadgeColor> = {
  DRAFT: "gray",
  SENT: "blue",
  PARTIALLY_PAID: "amber",
  PAID: "green",
  VOID: "red",
};
export const statementStatusLabel = (status: string | null | undefined) =>
  optionLabel(statementStatuses, status as StatementStatus);

/** A statement's status; one sent and open past its due date says Overdue beside it. */
export function StatementStatusBadge({
  status,
  dueDate,
  open,
}: {
  status: string | null | undefined;
  dueDate?: string | null;
  open?: string | null;
}) {
  if (!status) return null;
  const owed = (status === "SENT" || status === "PARTIALLY_PAID") && open && !/^-?0*(\.0*)?$/.test(open);
  const overdue = Boolean(owed && dueDate && dueDate < todayIso());
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge color={statementStatusColors[status as StatementStatus] ?? "gray"}>
        {statementStatusLabel(status)}
      </Badge>
      {overdue && <span className="text-xs font-medium text-red-800">Overdue</span>}
    </span>
  );
}

/** A value from the URL if it is one of `values`, else null (All). */
export const chosenOf = <V extends string>(values: readonly V[], param: string | null): V | null =>
  values.includes(param as V) ? (param as V) : null;

/**
 * A date filter kept in the URL (an earnings period's From and To): what is typed shows at once, and
 * goes to the URL once it is a whole day, or empty.
 */
export function DateFilter({
  param,
  label,
  value,
  onChange,
}: {
  param: string;
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const [text, setText] = useState(value ?? "");
  // The URL changed from elsewhere (Back, a link): show its day.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    if ((value ?? "") !== text) setText(value ?? "");
  }
  return (
    <Field id={`filter-${param}`} label={label} className="w-44">
      {(control) => (
        <DatePicker
          {...control}
          label={label}
          value={text}
          onChange={(next) => {
            setText(next);
            if (next === "") onChange(null);
            else if (isValidIsoDate(next)) onChange(next);
          }}
        />
      )}
    </Field>
  );
}

/** A project as the finance screens read it from the projects' list: its sites and currency. */
export type FinanceProject = {
  id: number;
  uuid: string;
  workingName: string;
  siteIds?: number[];
  finance?: { currency?: Currency | null; vat?: number | null };
};

/** The projects, by working name (spec §7 lookup: page 1, 250). */
export const projectLookup: LookupSource = {
  resource: "projects",
  pageSize: lookupPageSizes.projects,
  query: { order: "workingName", direction: "asc" },
};

/** The projects of a site (all of them when no site is given). */
export function useFinanceProjects(siteId: number | null | undefined) {
  const select = useCallback(
    (rows: FinanceProject[]) =>
      siteId ? rows.filter((p) => !p.siteIds || p.siteIds.includes(siteId)) : rows,
    [siteId],
  );
  return useLookupRows<FinanceProject, FinanceProject[]>(projectLookup, { select });
}

/** The projects of a site as options, for a list's Project filter (the same array while they stay). */
export function useProjectOptions(siteId: number | null | undefined) {
  const projects = useFinanceProjects(siteId);
  return useMemo(
    () => (projects.data ?? []).map((p) => ({ value: p.id, label: p.workingName })),
    [projects.data],
  );
}

/** The Project select of the finance screens: the projects of the site. */
export function ProjectSelect({
  value,
  onChange,
  siteId,
  error,
  required,
  id = fieldId("projectId"),
  className = "max-w-sm",
}: {
  value: number | null | undefined;
  onChange: (projectId: number) => void;
  siteId: number | null | undefined;
  error?: string;
  required?: boolean;
  id?: string;
  className?: string;
}) {
  const projects = useFinanceProjects(siteId);
  const options = (projects.data ?? []).map((p) => ({ value: p.id, label: p.workingName }));
  return (
    <Field id={id} label="Project" required={required} error={error} className={className}>
      {(control) => (
        <SearchableSelect
          {...control}
          options={options}
          loading={projects.isPending}
          value={value ?? null}
          onChange={(next) => onChange(Number(next))}
          placeholder="Please select ..."
          emptyText="No item found"
        />
      )}
    </Field>
  );
}

/** The site a new statement or payment is for: the chosen one (administrators), else the active site. */
export const siteIdOf = (data: { siteId?: number | null }, site: SiteOption | null) =>
  data.siteId ?? site?.id ?? null;

type ProjectSiteForm = { projectId?: number | null; siteId?: number | null };

/**
 * Project and site of a new statement or payment. Staff work in the active site, shown read-only; an
 * administrator chooses the site (the active one unless changed), among the sites of the project.
 * Another project or site clears what depended on it (`cleared`, e.g. a payment's allocations).
 */
export function ProjectAndSite<T extends ProjectSiteForm>({
  form,
  cleared = {},
}: {
  form: FormApi<T>;
  cleared?: Partial<T>;
}) {
  const { user } = useSession();
  const { site } = useActiveSite();
  const admin = Boolean(user?.isAdmin);
  const data = form.formData;
  const siteId = siteIdOf(data, site);
  const projects = useFinanceProjects(null);
  const project = projects.data?.find((p) => p.id === data.projectId);
  const sites = useLookupRows<{ id: number; code: string; shortName: string }>(siteLookup, {
    enabled: admin,
  });
  const siteOptions = (sites.data ?? [])
    .filter((s) => !project?.siteIds || project.siteIds.includes(s.id))
    .map((s) => ({ value: s.id, label: `${s.code} - ${s.shortName}` }));
  return (
    <>
      <ProjectSelect
        required
        value={data.projectId}
        siteId={siteId}
        error={form.errors.projectId}
        onChange={(projectId) => form.setFormData({ ...data, ...cleared, projectId })}
      />
      {admin ? (
        <Field id={fieldId("siteId")} label="Site" required error={form.errors.siteId} className="max-w-sm">
          {(control) => (
            <SearchableSelect
              {...control}
              options={siteOptions}
              loading={sites.isPending}
              value={siteId}
              onChange={(next) => {
                const chosen = Number(next);
                const other = projects.data?.find((p) => p.id === data.projectId);
                const keepsProject = !other?.siteIds || other.siteIds.includes(chosen);
                form.setFormData({
                  ...data,
                  ...cleared,
                  siteId: chosen,
                  projectId: keepsProject ? data.projectId : null,
                });
              }}
              placeholder="Please select ..."
              emptyText="No item found"
            />
          )}
        </Field>
      ) : (
        <Field id={fieldId("siteId")} label="Site" error={form.errors.siteId} className="max-w-sm">
          {(control) => <Input {...control} readOnly value={siteLabel(site)} className="bg-gray-50" />}
        </Field>
      )}
    </>
  );
}

/** GET /api/finance/summary: what a project has earned and been paid, at a site or at all its sites. */
export type FinanceSummary = {
  currency: Currency;
  earned: string;
  heldBack: string;
  awaitingVerification: string;
  unbilled: string;
  billed: string;
  received: string;
  open: string;
};
export type SummaryKey = Exclude<keyof FinanceSummary, "currency">;

export const summaryLabels: Record<SummaryKey, string> = {
  earned: "Earned",
  heldBack: "Held back",
  awaitingVerification: "Awaiting verification",
  unbilled: "Billable not yet billed",
  billed: "Billed",
  received: "Received",
  open: "Open",
};

/**
 * A project's totals in a row of labelled amounts, with its currency: the earnings list's (at the
 * active site) and the project detail's.
 */
export function FinanceTotals({
  title,
  projectId,
  siteId,
  shown,
  prompt,
}: {
  title: string;
  projectId: number | null;
  siteId?: number | null;
  shown: SummaryKey[];
  /** Said when no project is chosen. */
  prompt?: ReactNode;
}) {
  const headingId = useId();
  const query = { projectId: projectId ?? undefined, siteId: siteId ?? undefined };
  const summary = useQuery({
    queryKey: queryKeys.finance("summary", query),
    queryFn: () => api.get<FinanceSummary>("finance/summary", query),
    enabled: projectId !== null,
  });
  const data = summary.data;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-2 rounded-md border border-gray-200 bg-white p-3"
    >
      <h2 id={headingId} className="text-sm font-semibold text-gray-900">
        {title}
        {data && <span className="font-normal text-gray-600"> (amounts in {data.currency})</span>}
      </h2>
      {projectId === null ? (
        <p className="text-sm text-gray-600">{prompt ?? "Choose a project to see its totals."}</p>
      ) : summary.isPending ? (
        <Spinner label="Loading..." />
      ) : summary.isError ? (
        <Banner role="alert" tone="error">
          Can not load the totals: {summary.error.message}
        </Banner>
      ) : (
        <dl aria-label={title} className="flex flex-wrap gap-x-8 gap-y-2 text-sm">
          {shown.map((key) => (
            <div key={key} className="flex flex-col">
              <dt className="text-xs font-medium text-gray-600">{summaryLabels[key]}</dt>
              <dd className="font-semibold text-gray-900 tabular-nums">
                {shownAmount(data?.[key], data?.currency)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
