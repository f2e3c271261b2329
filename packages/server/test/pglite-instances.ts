import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * PGlite test databases, handed back and used again within a worker (decision 262). A new instance
 * unpacks the 29 MB dump and starts PostgreSQL: ~0.5 s of a core alone, more on a loaded machine, ~56
 * times a run. One handed back is put back as migrated before its next use: its tables emptied, its
 * sequences, statistics and session as they were. An instance whose schema, roles or settings a test
 * changed (its fingerprint differs from a new one's) is closed, never used again.
 */
const idle: PGlite[] = [];

/** What a migrated database is, read off the first instance of the worker. */
type Pristine = {
  fingerprint: string;
  /** Tables without rows, to empty; and those with rows (the migrations' own bookkeeping), kept. */
  emptyTables: string[];
  filled: string[];
  sequences: { name: string; lastValue: string | null; start: string }[];
};
let pristine: Pristine | undefined;

const userSchemas = `not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'`;

/** Every part of the catalog a test could change, and the rows of the tables migration filled. */
async function fingerprint(client: PGlite, filled: string[]): Promise<string> {
  const counts = filled.map((table) => `select '${table}:' || count(*) from ${table}`);
  const { rows } = await client.query<{ fingerprint: string }>(`
    select md5(string_agg(part, ',' order by part)) as fingerprint from (
      select format('%s.%s:%s', n.nspname, c.relname, c.relkind) as part
        from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname ${userSchemas}
      union all select format('%s.%s:%s:%s:%s', c.relname, a.attnum, a.attname, a.atttypid, a.attnotnull)
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname ${userSchemas} and a.attnum > 0 and not a.attisdropped
      union all select format('%s:%s', p.oid::regprocedure, md5(p.prosrc))
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname ${userSchemas}
      union all select format('%s:%s:%s', t.tgrelid::regclass, t.tgname, t.tgenabled) from pg_trigger t
      union all select format('%s:%s', conname, md5(pg_get_constraintdef(oid))) from pg_constraint
      union all select format('%s:%s:%s', setdatabase, setrole, setconfig) from pg_db_role_setting
      union all select format('%s:%s:%s', rolname, rolsuper, rolcanlogin) from pg_roles
      union all select format('%s:%s', extname, extversion) from pg_extension
      ${counts.map((count) => `union all ${count}`).join(" ")}
    ) parts`);
  return rows[0]?.fingerprint ?? "";
}

async function readPristine(client: PGlite): Promise<Pristine> {
  const tables = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
  );
  const filled: string[] = [];
  const emptyTables: string[] = [];
  for (const { name } of tables.rows) {
    const { rows } = await client.query<{ any: boolean }>(`select exists (select from ${name}) as any`);
    (rows[0]?.any ? filled : emptyTables).push(name);
  }
  const sequences = await client.query<{ name: string; lastValue: string | null; start: string }>(
    `select format('%I.%I', schemaname, sequencename) as name, last_value::text as "lastValue", start_value::text as start from pg_sequences`,
  );
  return { fingerprint: await fingerprint(client, filled), emptyTables, filled, sequences: sequences.rows };
}

/** Puts an instance back as migrated; false when a test changed what emptying cannot put back. */
async function putBack(client: PGlite, state: Pristine): Promise<boolean> {
  // A test that failed may have left a transaction open; outside one this only warns.
  await client.exec("rollback");
  if ((await fingerprint(client, state.filled)) !== state.fingerprint) return false;
  const sequences = state.sequences.map(({ name, lastValue, start }) =>
    lastValue === null
      ? `select setval('${name}', ${start}, false);`
      : `select setval('${name}', ${lastValue}, true);`,
  );
  // Without the triggers, as a restore does: the audit log refuses to be emptied otherwise.
  await client.exec(`
    set session_replication_role = replica;
    truncate ${state.emptyTables.join(", ")};
    ${sequences.join("\n")}
    delete from pg_statistic;`);
  // On its own: several statements in one go run as one transaction, which DISCARD refuses.
  await client.exec("discard all");
  return true;
}

async function newInstance(dump: () => Promise<Blob>): Promise<PGlite> {
  return PGlite.create({
    loadDataDir: await dump(),
    extensions: { pg_trgm },
    // A test file's few hundred rows need no 128 MB of buffers, which each instance clears and
    // which the kernel maps afresh for every file (decision 256).
    startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
  });
}

/**
 * The instance as one test sees it: once handed back, every call fails as on a closed PGlite, so a test
 * of what a closed database does sees that, and no test reaches an instance another has taken since.
 */
function lease(client: PGlite): { client: PGlite; handBack: () => void } {
  let handedBack = false;
  const view = new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (handedBack) throw new Error("PGlite is closed");
        return value.apply(target, args);
      };
    },
  });
  return {
    client: view,
    handBack: () => {
      if (handedBack) return;
      handedBack = true;
      idle.push(client);
    },
  };
}

/** A migrated PGlite instance for a test, and how to hand it back for another's use. */
export async function migratedPglite(
  dump: () => Promise<Blob>,
): Promise<{ client: PGlite; handBack: () => void }> {
  if (!pristine) {
    const first = await newInstance(dump);
    pristine = await readPristine(first);
    return lease(first);
  }
  for (let client = idle.pop(); client; client = idle.pop()) {
    if (await putBack(client, pristine)) return lease(client);
    await client.close();
  }
  return lease(await newInstance(dump));
}
