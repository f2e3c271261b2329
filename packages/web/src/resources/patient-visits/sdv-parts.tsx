import { useQuery } from "@tanstack/react-query";
import {
  type ListData,
  optionLabel,
  type QueryListRow,
  type QueryStatus,
  queryStatuses,
  type SdvStatus,
  sdvStatuses,
  shortDate,
  toIsoDate,
} from "@trialdesk/domain";
import { Link } from "react-router";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queries";
import { Badge, type BadgeColor } from "../../ui/badge";
import { Panel } from "../../ui/panel";
import { Spinner } from "../../ui/spinner";
import { TableArea, Td, Th } from "../../ui/table";

/**
 * What the patient-visit screens show of source-data verification and queries (issue 44): the
 * visit's SDV state in words or as a short badge, its open queries, and its queries' list.
 */
export const sdvLabel = (status: SdvStatus | null | undefined) => optionLabel(sdvStatuses, status) || "—";

const sdvColors: Record<SdvStatus, BadgeColor> = {
  NOT_REQUIRED: "gray",
  PENDING: "amber",
  VERIFIED: "green",
  REOPENED: "red",
};

/** A time the server wrote (an ISO instant) as the browser's day: "14 Mar 2026". */
const dayOf = (at: string) => shortDate(toIsoDate(new Date(at)));

type SdvFields = {
  sdvStatus?: SdvStatus | null;
  sdvVerifiedByName?: string | null;
  sdvVerifiedAt?: string | null;
};

/** The state's word and what follows it: "Verified" + " by Mona Monitor on 14 Mar 2026". */
function sdvWords(visit: SdvFields): { label: string; rest: string } {
  const label = sdvLabel(visit.sdvStatus);
  switch (visit.sdvStatus) {
    case "VERIFIED":
      return {
        label,
        rest: [
          visit.sdvVerifiedByName && ` by ${visit.sdvVerifiedByName}`,
          visit.sdvVerifiedAt && ` on ${dayOf(visit.sdvVerifiedAt)}`,
        ]
          .filter(Boolean)
          .join(""),
      };
    case "REOPENED":
      return { label, rest: ": changed since verified, to verify again" };
    default:
      return { label, rest: "" };
  }
}

/** The visit's SDV state in words: "Verified by Mona Monitor on 14 Mar 2026", "Reopened: …". */
export function sdvText(visit: SdvFields): string {
  const { label, rest } = sdvWords(visit);
  return label + rest;
}

/** The SDV state as a short badge (the patient visits list); "Not required" as a quiet dash. */
export function SdvBadge({ status }: { status: SdvStatus | null | undefined }) {
  if (!status || status === "NOT_REQUIRED")
    return (
      <span className="text-gray-500">
        <span aria-hidden="true">—</span>
        <span className="sr-only">{sdvLabel("NOT_REQUIRED")}</span>
      </span>
    );
  return <Badge color={sdvColors[status]}>{sdvLabel(status)}</Badge>;
}

/** The SDV state in words, its word as a badge where it concerns a monitor. */
export function SdvState(visit: SdvFields) {
  const status = visit.sdvStatus;
  if (!status || status === "NOT_REQUIRED") return <>{sdvText(visit)}</>;
  const { label, rest } = sdvWords(visit);
  return (
    <span>
      <Badge color={sdvColors[status]}>{label}</Badge>
      {rest}
    </span>
  );
}

const linkClass = "font-medium text-blue-800 underline-offset-2 hover:underline";

/** Where a visit's queries are listed (the queries list, filtered to the visit). */
export const visitQueriesRoute = (patientVisitId: number) =>
  `/queries?${new URLSearchParams({ patientVisitId: String(patientVisitId) })}`;

/** Where a monitor raises a query on the visit. */
export const raiseQueryRoute = (patientVisitId: number) =>
  `/queries/create?${new URLSearchParams({ patientVisitId: String(patientVisitId) })}`;

/** The visit's queries not closed, leading to its queries; "None" without any. */
export function OpenQueries({
  patientVisitId,
  count,
}: {
  patientVisitId: number | null | undefined;
  count: number | null | undefined;
}) {
  if (!patientVisitId || count === null || count === undefined) return <>—</>;
  if (count === 0) return <>None</>;
  return (
    <Link to={visitQueriesRoute(patientVisitId)} className={linkClass}>
      {count} open {count === 1 ? "query" : "queries"}
    </Link>
  );
}

/** Source verification and open queries of a recorded visit, as the visit form shows them. */
export function VisitVerification({
  visit,
}: {
  visit: SdvFields & { id?: number | null; openQueries?: number | null };
}) {
  if (!visit.sdvStatus) return null;
  return (
    <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm md:col-span-2">
      <div className="flex items-center gap-1.5">
        <dt className="text-gray-700">Source verification:</dt>
        <dd>
          <SdvState {...visit} />
        </dd>
      </div>
      <div className="flex items-center gap-1.5">
        <dt className="text-gray-700">Open queries:</dt>
        <dd>
          <OpenQueries patientVisitId={visit.id} count={visit.openQueries} />
        </dd>
      </div>
    </dl>
  );
}

const queryColors: Record<QueryStatus, BadgeColor> = { OPEN: "amber", ANSWERED: "blue", CLOSED: "gray" };

/** How many of a visit's queries the detail lists, latest first. */
const queriesShown = 100;

/**
 * The visit's queries (issue 44), each leading to its thread; a monitor raises one from here. Staff
 * answer them from the queries' own screens.
 */
export function VisitQueries({ patientVisitId, monitor }: { patientVisitId: number; monitor: boolean }) {
  const query = { patientVisitId, page: 1, pagesize: queriesShown };
  const queries = useQuery({
    queryKey: queryKeys.list("queries", query),
    queryFn: () => api.get<ListData<QueryListRow>>("queries", query),
  });
  const items = queries.data?.items ?? [];
  const total = queries.data?.pagination.total ?? 0;
  return (
    <Panel aria-labelledby="visit-queries" className="flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="visit-queries" className="text-base font-semibold text-gray-900">
          Queries
        </h2>
        {monitor && (
          <Link
            to={raiseQueryRoute(patientVisitId)}
            className="inline-flex items-center rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
          >
            Raise query
          </Link>
        )}
      </div>
      {queries.isPending ? (
        <Spinner label="Loading..." />
      ) : queries.isError ? (
        <p role="alert" className="text-sm text-red-800">
          Loading failed: {queries.error.message}
        </p>
      ) : items.length === 0 ? (
        <p className="text-sm text-gray-600">No queries on this visit</p>
      ) : (
        <>
          <TableArea label="Queries of this visit">
            <thead>
              <tr>
                <Th>Query</Th>
                <Th>Status</Th>
                <Th>Raised</Th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.uuid}>
                  <Td>
                    <Link to={`/queries/${item.uuid}`} className={linkClass}>
                      {item.text}
                    </Link>
                  </Td>
                  <Td>
                    <Badge color={queryColors[item.status] ?? "gray"}>
                      {optionLabel(queryStatuses, item.status)}
                    </Badge>
                  </Td>
                  <Td className="whitespace-nowrap">{item.createdAt ? dayOf(item.createdAt) : ""}</Td>
                </tr>
              ))}
            </tbody>
          </TableArea>
          {total > items.length && (
            <Link to={visitQueriesRoute(patientVisitId)} className={`text-sm ${linkClass}`}>
              All {total} queries of this visit
            </Link>
          )}
        </>
      )}
    </Panel>
  );
}
