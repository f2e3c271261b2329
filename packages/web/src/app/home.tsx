import { useQuery } from "@tanstack/react-query";
import { countText, type ListData, type WorklistData } from "@trialdesk/domain";
import {
  AlarmClock,
  BadgeCheck,
  CalendarClock,
  CalendarPlus,
  FlaskConical,
  type LucideIcon,
  MessageCircleQuestion,
  Table,
  TriangleAlert,
  UserPlus,
  Users,
} from "lucide-react";
import { Link } from "react-router";
import { api, type Query } from "../api/client";
import { mySites, queryKeys } from "../api/queries";
import { getConfig } from "./config";
import { useSession } from "./session";
import { useActiveSite, worksInSites } from "./site";

type Tile = { title: string; to: string; icon: LucideIcon; count?: number | null };

const tileClass =
  "flex h-32 flex-col items-center justify-center gap-3 rounded-lg border border-gray-200 bg-white p-4 text-center font-medium text-gray-900 shadow-sm hover:border-blue-300 hover:bg-blue-50 hover:text-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600";

/** The active site's Due and Overdue counts from the worklist (issue 12); none without a site. */
function useWorklistCounts() {
  const { site } = useActiveSite();
  const query = { siteId: site?.id, page: 1, pagesize: 1 };
  const { data } = useQuery({
    queryKey: queryKeys.worklistCounts(query),
    queryFn: () => api.get<WorklistData>("worklist", query),
    enabled: Boolean(site),
  });
  return site ? (data?.counts ?? null) : null;
}

/**
 * How many rows a list has, from one row of it; null until known or when not asked. Under the list's
 * own key, so whatever changes its rows (a saved visit, a verification, a message) reads it again.
 */
function useListTotal(path: string, filters: Query, enabled = true) {
  const query = { ...filters, page: 1, pagesize: 1 };
  const { data } = useQuery({
    queryKey: queryKeys.list(path, query),
    queryFn: () => api.get<ListData<unknown>>(path, query),
    enabled,
  });
  return enabled ? (data?.pagination.total ?? null) : null;
}

/** How many of the active site's protocol deviations are open (issue 43); none without a site. */
function useOpenDeviations() {
  const { site } = useActiveSite();
  return useListTotal("protocol-deviations", { siteId: site?.id, status: "OPEN" }, Boolean(site));
}

/** How many of the active site's queries wait for its answer (issue 44); none without a site. */
function useOpenQueries() {
  const { site } = useActiveSite();
  return useListTotal("queries", { siteId: site?.id, status: "OPEN" }, Boolean(site));
}

/** A sum of counts, once each is known. */
const sum = (...counts: (number | null)[]) =>
  counts.every((count) => count !== null) ? counts.reduce<number>((a, b) => a + (b ?? 0), 0) : null;

const countShown = (count: number | null | undefined) => (count == null ? "—" : countText(count));

/**
 * The home page. Staff: the four shortcut tiles (spec §1), and before them the active site's Due and
 * Overdue visits, each leading to the worklist filtered so (issue 12), its open protocol deviations
 * (issue 43) and its open queries (issue 44), leading to their lists filtered so. A monitor: their work.
 */
export function HomePage() {
  const { user } = useSession();
  return worksInSites(user) ? <SiteHome /> : <MonitorHome />;
}

/**
 * A monitor's home (issue 44): what there is to verify, the queries waiting for them (answered by the
 * site) and still open at the site, and their studies. A monitor works in studies: no site here.
 */
function MonitorHome() {
  const toVerify = sum(
    useListTotal("source-verification", { sdvStatus: "PENDING" }),
    useListTotal("source-verification", { sdvStatus: "REOPENED" }),
  );
  const answered = useListTotal("queries", { status: "ANSWERED" });
  const open = useListTotal("queries", { status: "OPEN" });
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-4">
      <h1 className="sr-only">Home</h1>
      <ul aria-label="Your work" className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <li>
          <Link to="/source-verification" className={tileClass}>
            <span className="flex items-center gap-3">
              <BadgeCheck aria-hidden className="size-8 text-blue-700" />
              <span className="text-3xl font-semibold tabular-nums">{countShown(toVerify)}</span>
            </span>{" "}
            Source verification <span className="text-sm font-normal text-gray-700">visits to verify</span>
          </Link>
        </li>
        <li>
          <Link to="/queries" className={tileClass}>
            <span className="flex items-center gap-4">
              <MessageCircleQuestion aria-hidden className="size-8 text-blue-700" />
              <span className="flex flex-col items-center">
                <span className="text-3xl font-semibold tabular-nums">{countShown(answered)}</span>{" "}
                <span className="text-sm font-normal text-gray-700">answered</span>
              </span>{" "}
              <span className="flex flex-col items-center">
                <span className="text-3xl font-semibold tabular-nums">{countShown(open)}</span>{" "}
                <span className="text-sm font-normal text-gray-700">open</span>
              </span>
            </span>{" "}
            Queries
          </Link>
        </li>
        <li>
          <Link to="/studies" className={tileClass}>
            <FlaskConical aria-hidden className="size-8 text-blue-700" />
            Studies
          </Link>
        </li>
      </ul>
    </div>
  );
}

/** What the home page asks of someone who works in sites but has not chosen one (issue 46, decision 238). */
const chooseSiteText =
  "Choose your site first: open “No site selected” at the top right of the page and pick your site. Its visits, deviations and queries are then counted here, and the patient screens show its patients.";
/** The same for someone no site is given to yet. */
const noSiteGivenText =
  "No site is given to you yet: an administrator adds your sites to your user account (Administration, Users).";

/**
 * Tells staff without an active site what to do: choose one in the header's site selector, or, with
 * none given, ask an administrator. Nothing while their sites load, or while their only site is being
 * chosen for them.
 */
function ChooseSite() {
  const { user } = useSession();
  const { site } = useActiveSite();
  const { data } = useQuery({ ...mySites(user?.uuid), enabled: user !== null });
  if (site || !data || data.items.length === 1) return null;
  return (
    <p className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      {data.items.length === 0 ? noSiteGivenText : chooseSiteText}
    </p>
  );
}

/** Staff's home: what to do without an active site, the active site's counts, then the four tiles. */
function SiteHome() {
  const counts = useWorklistCounts();
  const openDeviations = useOpenDeviations();
  const openQueries = useOpenQueries();
  const worklist: Tile[] = [
    { title: "Overdue visits", to: "/worklist?state=overdue", icon: AlarmClock, count: counts?.overdue },
    { title: "Due visits", to: "/worklist?state=due", icon: CalendarClock, count: counts?.due },
    {
      title: "Open deviations",
      to: "/protocol-deviations?status=OPEN",
      icon: TriangleAlert,
      count: openDeviations,
    },
    // The monitors' questions the site has to answer (issue 44).
    {
      title: "Open queries",
      to: "/queries?status=OPEN",
      icon: MessageCircleQuestion,
      count: openQueries,
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
      <ChooseSite />
      <ul aria-label="At the active site" className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {worklist.map(({ title, to, icon: Icon, count }) => (
          <li key={title}>
            <Link to={to} className={tileClass}>
              <span className="flex items-center gap-3">
                <Icon aria-hidden className="size-8 text-blue-700" />
                <span className="text-3xl font-semibold tabular-nums">{countShown(count)}</span>
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
