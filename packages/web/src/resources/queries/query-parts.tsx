import { optionLabel, type QueryStatus, queryStatuses } from "@trialdesk/domain";
import { format as formatDate } from "date-fns";
import { Badge, type BadgeColor } from "../../ui/badge";

/**
 * What the query screens and the home page share (issue 44): a query's status in words and as a
 * badge, and its times as the screens show them.
 */
export const queryStatusLabel = (status: string | null | undefined) =>
  optionLabel(queryStatuses, status as QueryStatus);

/** Open waits for the site, Answered for the monitor; Closed is done. */
const statusColors: Record<QueryStatus, BadgeColor> = {
  OPEN: "amber",
  ANSWERED: "blue",
  CLOSED: "gray",
};

export function QueryStatusBadge({ status }: { status: string | null | undefined }) {
  if (!status) return null;
  return <Badge color={statusColors[status as QueryStatus] ?? "gray"}>{queryStatusLabel(status)}</Badge>;
}

/** The status a chip or a link asks for: one of the domain's, else none (All). */
export function chosenQueryStatus(param: string | null): QueryStatus | null {
  return queryStatuses.some((s) => s.value === param) ? (param as QueryStatus) : null;
}

/** An instant the server sends (ISO, UTC) as a local date, or date and time. */
export const dateOf = (iso: string | null | undefined) =>
  iso ? formatDate(new Date(iso), "yyyy-MM-dd") : "";
export const timeOf = (iso: string | null | undefined) =>
  iso ? formatDate(new Date(iso), "yyyy-MM-dd HH:mm") : "";
