import { type Earning, type EarningState, earningStates, earningStateValues } from "@trialdesk/domain";
import { useMemo } from "react";
import { Link, Navigate, useParams } from "react-router";
import { useActiveSite } from "../../app/site";
import { type DetailDescription, DetailScreen, show } from "../../screens/DetailScreen";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { NoSiteChosen } from "../../screens/site-scoped";
import { useUrlParams } from "../../screens/url-params";
import { FilterChips } from "../../ui/filter-chips";
import type { SelectOption } from "../../ui/select";
import {
  chosenOf,
  DateFilter,
  EarningStateBadge,
  earningStateLabel,
  FinanceTotals,
  Money,
  positiveId,
  useProjectOptions,
} from "../finance/finance-parts";

/**
 * Earnings (issue 45): one per completed plan visit, written by Trialdesk with the visit's save, never
 * by hand (the registry's write access "none": no Add, Edit or Remove). The list is the active site's,
 * narrowed by project, state and service period, with the chosen project's totals above it.
 */

/** The chips in the order an earning goes through; All leaves the state out of the URL. */
const stateChips: { value: EarningState | null; label: string }[] = [
  { value: null, label: "All" },
  ...earningStates.map(({ value, label }) => ({ value, label })),
];

const linkClass = "font-medium text-blue-800 underline-offset-2 hover:underline";

/** The statement an earning is on, as a link; nothing while it is on none. */
const StatementLink = ({ uuid }: { uuid: string | null | undefined }) =>
  uuid ? (
    <Link to={`/statements/${uuid}`} className={linkClass}>
      View statement
    </Link>
  ) : null;

const describeEarning = (row: Earning) => `earning of ${row.barcode}, ${row.visitName}`;

type Chosen = {
  projectId: number | null;
  state: EarningState | null;
  from: string | null;
  to: string | null;
};

const listOf = (
  siteId: number,
  chosen: Chosen,
  projectOptions: SelectOption[],
  change: (changes: Record<string, string | null>) => void,
): ListDescription<Earning> => ({
  resource: "earnings",
  query: {
    siteId,
    state: chosen.state ?? undefined,
    from: chosen.from ?? undefined,
    to: chosen.to ?? undefined,
  },
  options: { add: false, edit: false, view: true, remove: false },
  searchable: false,
  filters: [{ param: "projectId", label: "Project", options: projectOptions }],
  toolbar: () => (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <DateFilter param="from" label="From" value={chosen.from} onChange={(from) => change({ from })} />
        <DateFilter param="to" label="To" value={chosen.to} onChange={(to) => change({ to })} />
      </div>
      <FilterChips
        legend="Show earnings that are"
        chips={stateChips}
        chosen={chosen.state}
        onChoose={(state) => change({ state })}
      />
      <FinanceTotals
        title="Totals"
        projectId={chosen.projectId}
        siteId={siteId}
        shown={["earned", "heldBack", "awaitingVerification", "unbilled", "billed", "received", "open"]}
        prompt="Choose a project to see its totals at this site."
      />
    </div>
  ),
  describe: describeEarning,
  columns: [
    { key: "serviceDate", title: "Service date", sortable: true, className: "whitespace-nowrap" },
    { key: "barcode", title: "Patient", className: "whitespace-nowrap tabular-nums" },
    {
      key: "visitName",
      title: "Visit",
      format: (row) => (
        <>
          {row.visitName}
          {row.reversal && <span className="ml-1 text-xs text-gray-600">(reversal)</span>}
        </>
      ),
    },
    { key: "projectName", title: "Project" },
    {
      key: "amount",
      title: "Amount",
      sortable: true,
      className: "text-right",
      format: (row) => <Money amount={row.amount} currency={row.currency} />,
    },
    {
      key: "heldBack",
      title: "Held back",
      className: "text-right",
      format: (row) => <Money amount={row.heldBack} currency={row.currency} />,
    },
    {
      key: "payable",
      title: "Payable",
      className: "text-right",
      format: (row) => <Money amount={row.payable} currency={row.currency} />,
    },
    {
      key: "state",
      title: "State",
      sortable: true,
      format: (row) => <EarningStateBadge state={row.state} />,
    },
    {
      key: "statementUuid",
      title: "Statement",
      className: "whitespace-nowrap",
      format: (row) => <StatementLink uuid={row.statementUuid} />,
    },
  ],
});

export function List() {
  const { site } = useActiveSite();
  const [params, updateParams] = useUrlParams();
  const projectOptions = useProjectOptions(site?.id);
  const projectId = positiveId(params.get("projectId"));
  const state = chosenOf(earningStateValues, params.get("state"));
  const from = params.get("from");
  const to = params.get("to");
  const description = useMemo(() => {
    if (!site) return null;
    const change = (changes: Record<string, string | null>) => updateParams(changes, { resetPage: true });
    return listOf(site.id, { projectId, state, from, to }, projectOptions, change);
  }, [site, projectId, state, from, to, projectOptions, updateParams]);
  return description ? <ListScreen description={description} /> : <NoSiteChosen />;
}

/** Earnings are never entered: the create and edit routes lead to the list or the earning. */
export function Form() {
  const { itemId } = useParams();
  return <Navigate to={itemId ? `/earnings/${itemId}` : "/earnings"} replace />;
}

const detail: DetailDescription<Earning> = {
  resource: "earnings",
  editable: false,
  rows: [
    { label: "Service date", value: (e) => show(e.serviceDate) },
    { label: "Patient", value: (e) => show(e.barcode) },
    {
      label: "Visit",
      value: (e) =>
        e.patientVisitUuid ? (
          <Link to={`/patient-visits/${e.patientVisitUuid}`} className={linkClass}>
            {e.visitName}
          </Link>
        ) : (
          show(e.visitName)
        ),
    },
    { label: "Project", value: (e) => show(e.projectName) },
    { label: "Site", value: (e) => show(e.siteCode) },
    { label: "Amount", value: (e) => <Money amount={e.amount} currency={e.currency} /> },
    { label: "Held back", value: (e) => <Money amount={e.heldBack} currency={e.currency} /> },
    { label: "Payable", value: (e) => <Money amount={e.payable} currency={e.currency} /> },
    { label: "State", value: (e) => show(earningStateLabel(e.state)) },
    { label: "Reversal", value: (e) => (e.reversal ? "Yes" : "No") },
    {
      label: "Statement",
      value: (e) => (e.statementUuid ? <StatementLink uuid={e.statementUuid} /> : "—"),
    },
  ],
};

export const Detail = () => <DetailScreen description={detail} />;
