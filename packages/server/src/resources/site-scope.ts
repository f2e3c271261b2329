import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { SessionUser } from "../auth/guards";
import { intArray } from "./resource-query";

const standIns = new WeakSet<object>();

/**
 * Stands for every staff member when a statement is built once and prepared for all callers (the
 * machinery's read by key, issue 14): its sites are the `siteIds` placeholder, filled in per call by
 * `siteIdsOf`. A scope may read only `isAdmin` and, through `inSites`, the sites; reading anything else
 * of it throws, so a scope that depends on more cannot be shared between callers by mistake.
 */
function standIn(isAdmin: boolean): SessionUser {
  const known = { isAdmin, siteIds: [] as number[] };
  const user = new Proxy(known, {
    get(target, key) {
      if (key in target) return target[key as keyof typeof target];
      throw new Error(`A site scope read "${String(key)}" of the user; it may read only isAdmin and siteIds`);
    },
  }) as unknown as SessionUser;
  standIns.add(user);
  return user;
}
export const anyStaffMember = standIn(false);
/** The same for administrators, whose scope (none today) is built once for all of them. */
export const anyAdministrator = standIn(true);

/** The user's sites as the value of the `siteIds` placeholder. */
export const siteIdsOf = (user: SessionUser | null) => intArray(user?.siteIds ?? []);

/** The column is one of the user's sites (none for a user without sites, or no user). */
export function inSites(column: SQLWrapper, user: SessionUser | null): SQL {
  const sites = user && standIns.has(user) ? sql.placeholder("siteIds") : siteIdsOf(user);
  return sql`${column} = any(${sites}::int[])`;
}
