import { asc, eq, inArray } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../db/client";

/**
 * A record's sites kept in a link table (user_sites, project_sites): written whole, each site once,
 * and read back as `siteIds` in id order for a page of records at a time.
 */
export function siteLinks<K extends string>(table: PgTable & Record<K | "siteId", PgColumn>, ownerKey: K) {
  const owner = table[ownerKey];
  return {
    /** Gives the owner these sites; `replace` drops the ones it had (false for a new record). */
    async write(tx: Db | Tx, ownerId: number, siteIds: readonly number[], replace = true) {
      if (replace) await tx.delete(table).where(eq(owner, ownerId));
      const unique = [...new Set(siteIds)];
      if (unique.length > 0)
        await tx.insert(table).values(unique.map((siteId) => ({ [ownerKey]: ownerId, siteId })) as never);
    },

    /** The records with their `siteIds`. */
    async attach<R extends Record<string, unknown>>(
      db: Db | Tx,
      records: R[],
    ): Promise<(R & { siteIds: number[] })[]> {
      const rows = await db
        .select({ owner, siteId: table.siteId })
        .from(table as PgTable)
        .where(
          inArray(
            owner,
            records.map((r) => r.id as number),
          ),
        )
        .orderBy(asc(table.siteId));
      const byOwner = new Map<number, number[]>();
      for (const row of rows as { owner: number; siteId: number }[])
        byOwner.set(row.owner, [...(byOwner.get(row.owner) ?? []), row.siteId]);
      return records.map((record) => ({ ...record, siteIds: byOwner.get(record.id as number) ?? [] }));
    },
  };
}
