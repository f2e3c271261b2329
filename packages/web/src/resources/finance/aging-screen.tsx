import { useQuery } from "@tanstack/react-query";
import { type Aging, type AgingBucket, agingBuckets, formatMinor, toMinor } from "@trialdesk/domain";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queries";
import { useActiveSite } from "../../app/site";
import { NoSiteChosen } from "../../screens/site-scoped";
import { useUrlParams } from "../../screens/url-params";
import { Banner, Panel } from "../../ui/panel";
import { Spinner } from "../../ui/spinner";
import { Td, Th } from "../../ui/table";
import { DateFilter, ProjectSelect, positiveId, shownAmount, todayIso } from "./finance-parts";

/**
 * Aging (issue 45): how late the open gross of a project's sent statements at the active site is on a
 * day — not yet due, 1–30, 31–60, 61–90 and over 90 days past the due date — and beside it what is
 * not billed yet: billable, awaiting verification, held back until close-out, and unapplied credit.
 * Project and As of stay in the URL.
 */

export const bucketTitles: Record<AgingBucket, string> = {
  notDue: "Not yet due",
  days1to30: "1–30 days",
  days31to60: "31–60 days",
  days61to90: "61–90 days",
  over90: "Over 90 days",
};

type Beside = "unbilled" | "awaitingVerification" | "heldBack" | "unappliedCredit";
const besideTitles: Record<Beside, string> = {
  unbilled: "Unbilled",
  awaitingVerification: "Awaiting verification",
  heldBack: "Held back",
  unappliedCredit: "Unapplied credit",
};

/** The open gross of all the buckets, added in minor units. */
const openTotal = (aging: Aging) =>
  formatMinor(
    agingBuckets.reduce((sum, bucket) => sum + toMinor(aging[bucket], aging.currency), 0n),
    aging.currency,
  );

function AgingTable({ aging }: { aging: Aging }) {
  return (
    <div className="overflow-x-auto rounded-md border border-gray-200">
      <table aria-label="Aging" className="w-full border-collapse text-left text-sm">
        <caption className="px-3 py-2 text-left text-sm text-gray-700">
          As of {aging.asOf}, amounts in {aging.currency}
        </caption>
        <thead>
          <tr>
            <Th colSpan={agingBuckets.length + 1} className="text-center">
              Open on sent statements, by days past due
            </Th>
            <Th colSpan={4} className="border-l border-gray-300 text-center">
              Not billed yet
            </Th>
          </tr>
          <tr>
            {agingBuckets.map((bucket) => (
              <Th key={bucket} className="text-right">
                {bucketTitles[bucket]}
              </Th>
            ))}
            <Th className="text-right">Total open</Th>
            {(Object.keys(besideTitles) as Beside[]).map((key, index) => (
              <Th key={key} className={`text-right ${index === 0 ? "border-l border-gray-300" : ""}`}>
                {besideTitles[key]}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {agingBuckets.map((bucket) => (
              <Td
                key={bucket}
                className={`text-right tabular-nums ${bucket === "over90" ? "text-red-800" : ""}`}
              >
                {shownAmount(aging[bucket], aging.currency)}
              </Td>
            ))}
            <Td className="text-right font-semibold tabular-nums">
              {shownAmount(openTotal(aging), aging.currency)}
            </Td>
            {(Object.keys(besideTitles) as Beside[]).map((key, index) => (
              <Td
                key={key}
                className={`text-right tabular-nums ${index === 0 ? "border-l border-gray-300" : ""}`}
              >
                {shownAmount(aging[key], aging.currency)}
              </Td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

export function AgingScreen() {
  const { site } = useActiveSite();
  const [params, updateParams] = useUrlParams();
  const projectId = positiveId(params.get("projectId"));
  const asOf = params.get("asOf") ?? todayIso();
  const query = { projectId: projectId ?? undefined, siteId: site?.id, asOf };
  const aging = useQuery({
    queryKey: queryKeys.finance("aging", query),
    queryFn: () => api.get<Aging>("finance/aging", query),
    enabled: projectId !== null && Boolean(site),
    // Another day keeps the table in view while it loads; another project starts afresh.
    placeholderData: (previous, previousQuery) =>
      (previousQuery?.queryKey[2] as typeof query | undefined)?.projectId === query.projectId
        ? previous
        : undefined,
  });
  if (!site) return <NoSiteChosen />;
  return (
    <Panel className="flex flex-col gap-4 p-4">
      <h1 className="text-xl font-semibold text-gray-900">Aging</h1>
      <fieldset className="flex flex-wrap items-end gap-3">
        <legend className="sr-only">Filters</legend>
        <ProjectSelect
          id="filter-projectId"
          className="w-72"
          value={projectId}
          siteId={site.id}
          onChange={(next) => updateParams({ projectId: next })}
        />
        <DateFilter
          param="asOf"
          label="As of"
          value={asOf}
          onChange={(next) => updateParams({ asOf: next }, { replace: true })}
        />
      </fieldset>
      {projectId === null ? (
        <p className="text-sm text-gray-600">Choose a project to see how late its statements are paid.</p>
      ) : aging.isPending ? (
        <Spinner label="Loading..." />
      ) : aging.isError ? (
        <Banner role="alert" tone="error">
          Can not load the aging: {aging.error.message}
        </Banner>
      ) : (
        <AgingTable aging={aging.data} />
      )}
    </Panel>
  );
}
