import { useQuery } from "@tanstack/react-query";
import { countText, type ListData, type WorklistData } from "@trialdesk/domain";
import {
  AlarmClock,
  CalendarClock,
  CalendarPlus,
  type LucideIcon,
  Table,
  TriangleAlert,
  UserPlus,
  Users,
} from "lucide-react";
import { Link } from "react-router";
import { api } from "../api/client";
import { queryKeys } from "../api/queries";
import { getConfig } from "./config";
import { useActiveSite } from "./site";

type Tile = { title: string; to: string; icon: LucideIcon; count?: number | null };

const tileClass =
  "flex h-32 flex-col items-center justify-center gap-3 rounded-lg border border-gray-200 bg-white p-4 text-center font-medium text-gray-900 shadow-sm hover:border-blue-300 hover:bg-blue-50 hover:text-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600";

/** The active site's Due and Overdue counts from the worklist (issue 12); none without a site. */
function useWorklistCounts() {
  const { site } = useActiveSite();
  const query = { siteId: site?.id, page: 1, pagesize: 1 };
  const { data } = useQuery({
    queryKey: ["worklist", "counts", query],
    queryFn: () => api.get<WorklistData>("worklist", query),
    enabled: Boolean(site),
  });
  return site ? (data?.counts ?? null) : null;
}

/** How many of the active site's protocol deviations are open (issue 43); none without a site. */
function useOpenDeviations() {
  const { site } = useActiveSite();
  const query = { siteId: site?.id, status: "OPEN", page: 1, pagesize: 1 };
  const { data } = useQuery({
    // Under the resource's name, so a saved visit or deviation reads it again.
    queryKey: queryKeys.list("protocol-deviations", query),
    queryFn: () => api.get<ListData<unknown>>("protocol-deviations", query),
    enabled: Boolean(site),
  });
  return site ? (data?.pagination.total ?? null) : null;
}

/**
 * The home page's four shortcut tiles (spec §1), and before them the active site's Due and Overdue
 * visits, each leading to the worklist filtered so (issue 12), and its open protocol deviations,
 * leading to their list filtered so (issue 43).
 */
export function HomePage() {
  const counts = useWorklistCounts();
  const openDeviations = useOpenDeviations();
  const worklist: Tile[] = [
    { title: "Overdue visits", to: "/worklist?state=overdue", icon: AlarmClock, count: counts?.overdue },
    { title: "Due visits", to: "/worklist?state=due", icon: CalendarClock, count: counts?.due },
    {
      title: "Open deviations",
      to: "/protocol-deviations?status=OPEN",
      icon: TriangleAlert,
      count: openDeviations,
    },
  ];
  const tiles: Tile[] = [
    { title: "New visit", to: "/patient-visits/create", icon: CalendarPlus },
    { title: "Add patient to study", to: "/study-patients/create", icon: Users },
    { title: "New Patient", to: "/patients/create", icon: UserPlus },
    { title: "Visit summary", to: `/visit-summary/${getConfig().summaryStudyUuid}`, icon: Table },
  ];
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-4">
      <h1 className="sr-only">Home</h1>
      <ul aria-label="At the active site" className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        {worklist.map(({ title, to, icon: Icon, count }) => (
          <li key={title}>
            <Link to={to} className={tileClass}>
              <span className="flex items-center gap-3">
                <Icon aria-hidden className="size-8 text-blue-700" />
                <span className="text-3xl font-semibold tabular-nums">
                  {count == null ? "—" : countText(count)}
                </span>
              </span>{" "}
              {title}
            </Link>
          </li>
        ))}
      </ul>
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {tiles.map(({ title, to, icon: Icon }) => (
          <li key={title}>
            <Link to={to} className={tileClass}>
              <Icon aria-hidden className="size-8 text-blue-700" />
              {title}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
