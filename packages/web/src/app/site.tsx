import * as Popover from "@radix-ui/react-popover";
import { useQuery } from "@tanstack/react-query";
import type { SiteOption } from "@trialdesk/domain";
import { Check, ChevronDown, MapPin } from "lucide-react";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from "react";
import { mySites } from "../api/queries";
import { useSession } from "./session";

/**
 * The active site (spec §6): the user picks one of the sites assigned to them; patient screens work
 * in it. The choice is kept in localStorage per user (by uuid) and dropped when the site is no longer
 * in the user's list.
 */
export type ActiveSite = {
  site: SiteOption | null;
  sites: SiteOption[];
  setSite: (site: SiteOption | null) => void;
};

export const activeSiteStorageKey = (userUuid: string) => `trialdesk.activeSite.${userUuid}`;

export function siteLabel(site: SiteOption | null): string {
  return site ? `${site.code} - ${site.shortName}` : "No site selected";
}

const storageListeners = new Set<() => void>();
function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function writeStored(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
  for (const listener of storageListeners) listener();
}

const noSite: ActiveSite = { site: null, sites: [], setSite: () => {} };
const ActiveSiteContext = createContext<ActiveSite>(noSite);

/** A monitor (issue 44) works in studies, never in a site: no site is chosen or asked for. */
export const worksInSites = (user: { kind?: "user" | "monitor" } | null) => user?.kind !== "monitor";

/**
 * Loads the signed-in user's sites and provides the active one to the screens inside the frame. A
 * monitor has none: their screens read their studies instead.
 */
export function ActiveSiteProvider({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const inSites = user !== null && worksInSites(user);
  const key = inSites ? activeSiteStorageKey(user.uuid) : null;
  const { data } = useQuery({ ...mySites(user?.uuid), enabled: inSites });
  const storedUuid = useSyncExternalStore(
    (listener) => {
      storageListeners.add(listener);
      return () => storageListeners.delete(listener);
    },
    () => (key ? readStored(key) : null),
  );
  const sites = useMemo(() => data?.items ?? [], [data]);
  // Until the list has loaded no site is active: a stale choice is never used for a call.
  const site = useMemo(() => sites.find((s) => s.uuid === storedUuid) ?? null, [sites, storedUuid]);
  const stale = Boolean(key && data && storedUuid && !site);
  useEffect(() => {
    if (stale && key) writeStored(key, null);
  }, [stale, key]);
  // Someone with exactly one site works in it: it is chosen for them (issue 15).
  const only = data && sites.length === 1 && !site ? sites[0] : null;
  useEffect(() => {
    if (only && key) writeStored(key, only.uuid);
  }, [only, key]);
  const setSite = useCallback(
    (next: SiteOption | null) => key && writeStored(key, next?.uuid ?? null),
    [key],
  );
  const value = useMemo(() => ({ site, sites, setSite }), [site, sites, setSite]);
  return <ActiveSiteContext.Provider value={value}>{children}</ActiveSiteContext.Provider>;
}

export function useActiveSite(): ActiveSite {
  return useContext(ActiveSiteContext);
}

/**
 * The frame's site selector: a button `code - shortName` and a list with code, city and shortName;
 * nothing for a monitor.
 */
export function SiteSelector() {
  const { site, sites, setSite } = useActiveSite();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  // A monitor has no site to choose (issue 44).
  if (!worksInSites(user)) return null;
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        title="Active site"
        className="inline-flex min-w-0 items-center gap-1 whitespace-nowrap rounded-md border border-gray-300 bg-white px-1.5 py-1 text-sm text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-600 sm:gap-1.5 sm:px-2.5"
      >
        <MapPin aria-hidden className="hidden size-4 shrink-0 text-gray-500 sm:block" />
        {/* On a phone the label is cut (the list shows it whole) so the header keeps one line. */}
        <span className="max-w-24 truncate sm:max-w-none">{siteLabel(site)}</span>
        <ChevronDown aria-hidden className="size-4 shrink-0 text-gray-500" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          aria-label="Choose the active site"
          align="end"
          sideOffset={4}
          className="z-50 w-72 rounded-md border border-gray-200 bg-white p-1 shadow-lg"
        >
          {sites.length === 0 ? (
            <p className="px-2 py-1.5 text-sm text-gray-500">No item found</p>
          ) : (
            <ul aria-label="Sites" className="max-h-80 overflow-auto">
              {sites.map((option) => {
                const chosen = option.uuid === site?.uuid;
                return (
                  <li key={option.uuid}>
                    <button
                      type="button"
                      aria-pressed={chosen}
                      onClick={() => {
                        setSite(option);
                        setOpen(false);
                      }}
                      className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-600"
                    >
                      <span className="w-14 font-mono font-semibold text-gray-900">{option.code}</span>
                      <span className="flex-1 text-gray-600">{option.city ?? ""}</span>
                      <span className="text-gray-900">{option.shortName}</span>
                      <Check aria-hidden className={`size-4 text-blue-700 ${chosen ? "" : "invisible"}`} />
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
