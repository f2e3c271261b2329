import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openPostgres, queryRows } from "../src/db/client";
import { seed } from "../src/seed/seed";
import { databaseKinds, freshDatabase, postgresCopy } from "./helpers";

describe.each(databaseKinds)("the schema on %s", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase(kind);
  });
  afterAll(() => database.close());
  const run = (query: ReturnType<typeof sql>) => queryRows(database.db, query);

  it("has a table for every entity of spec §3", async () => {
    const rows = await run(
      sql`select table_name from information_schema.tables where table_schema = 'public'`,
    );
    const names = rows.map((r) => r.table_name);
    for (const table of [
      "therapy_categories",
      "therapy_areas",
      "sites",
      "partners",
      "projects",
      "project_sites",
      "studies",
      "visits",
      "studyplans",
      "studyplan_schedule_entries",
      "patients",
      "addresses",
      "patient_contacts",
      "study_patients",
      "patient_visits",
      "users",
      "user_sites",
      "monitors",
      "refresh_tokens",
      "audit_events",
      "settings",
      "login_failures",
    ]) {
      expect(names).toContain(table);
    }
  });

  it.runIf(kind === "postgres")(
    "is migrated once by servers starting at the same moment on a new database: the second waits",
    async () => {
      const empty = await postgresCopy({ migrated: false });
      const first = openPostgres(empty.url, 1);
      const second = openPostgres(empty.url, 1);
      try {
        await Promise.all([first.migrate(), second.migrate()]);
        const applied = await queryRows<{ n: number }>(
          first.db,
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        const journal = JSON.parse(
          readFileSync(new URL("../drizzle/meta/_journal.json", import.meta.url), "utf8"),
        );
        expect(applied).toEqual([{ n: journal.entries.length }]);
      } finally {
        await Promise.all([first.close(), second.close()]);
        await empty.drop();
      }
    },
  );

  it.runIf(kind === "postgres")(
    "runs its statements without JIT compiling, which costs more than it saves",
    async () => {
      expect(await run(sql`select current_setting('jit') as jit`)).toEqual([{ jit: "off" }]);
    },
  );

  it("indexes every foreign key", async () => {
    const rows = await run(sql`
      select c.conrelid::regclass::text as tbl, a.attname as col
      from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and not exists (
        select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])`);
    expect(rows).toEqual([]);
  });

  it("refuses UPDATE, DELETE and TRUNCATE on the audit trail", async () => {
    await run(
      sql`insert into audit_events (request_id, resource, uuid, action, changes) values ('r', 'x', 'u', 'create', '[]')`,
    );
    await expect(run(sql`update audit_events set resource = 'y'`)).rejects.toThrow();
    await expect(run(sql`delete from audit_events`)).rejects.toThrow();
    await expect(run(sql`truncate audit_events`)).rejects.toThrow();
    const rows = await run(sql`select resource from audit_events`);
    expect(rows).toEqual([{ resource: "x" }]);
  });

  it("enforces the rules of the model: one randomisation visit per study, enum checks, unique e-mails", async () => {
    await seed(database.db, { demoAdmin: true });
    await run(sql`insert into projects (uuid, working_name, protocol_nr, internal_code, project_status_id, phase, therapy_area_id, cro_id, sponsor_id)
      values ('prj-1', 'P', 'PR-001', 'ACRMDPBRC001', 30, 3, 1, 1, 3)`);
    await run(sql`insert into studies (uuid, project_id, variant, working_name, fpfv, lpfv, lplv, project_status_id)
      values ('std-1', (select id from projects where uuid = 'prj-1'), 'NORMAL', 'PR-001_NORMAL', '2025-01-01', '2025-06-01', '2026-01-01', 30)`);
    await run(
      sql`insert into visits (uuid, study_id, name, visit_type_id) values ('visit-1', (select id from studies where uuid = 'std-1'), 'Randomisation', 50)`,
    );
    await expect(
      run(
        sql`insert into visits (uuid, study_id, name, visit_type_id) values ('visit-2', (select id from studies where uuid = 'std-1'), 'Again', 50)`,
      ),
    ).rejects.toThrow();
    await run(
      sql`insert into visits (uuid, study_id, name, visit_type_id) values ('visit-3', (select id from studies where uuid = 'std-1'), 'Screening', 20)`,
    );
    await expect(
      run(
        sql`insert into visits (uuid, study_id, name, visit_type_id) values ('visit-4', (select id from studies where uuid = 'std-1'), 'Odd', 55)`,
      ),
    ).rejects.toThrow();
    await expect(
      run(sql`insert into studies (uuid, project_id, variant, working_name, fpfv, lpfv, lplv, project_status_id)
      values ('std-2', 1, 'OTHER', 'x', '2025-01-01', '2025-06-01', '2026-01-01', 30)`),
    ).rejects.toThrow();
    await expect(
      run(
        sql`insert into users (uuid, email, password_hash, first_name, last_name) values ('usr-x', 'ADMIN@example.com', 'h', 'A', 'B')`,
      ),
    ).rejects.toThrow();
  });

  it("seeds the demo data once: three sites, partners, categories and 25+ areas, the demo administrator", async () => {
    await seed(database.db, { demoAdmin: true });
    const count = async (table: string) =>
      Number((await run(sql`select count(*)::int as n from ${sql.identifier(table)}`))[0].n);
    expect(await count("sites")).toBe(3);
    expect(await count("partners")).toBeGreaterThanOrEqual(4);
    expect(await count("therapy_areas")).toBeGreaterThanOrEqual(25);
    // The demo administrator with every site, and the demo staff member with the first site only.
    const rows = await run(
      sql`select email, is_admin, (select array_agg(s.code order by s.code) from user_sites us join sites s on s.id = us.site_id where us.user_id = users.id) as sites from users order by id`,
    );
    expect(rows).toEqual([
      { email: "admin@example.com", is_admin: true, sites: ["BUD", "VIE", "WAW"] },
      { email: "staff@example.com", is_admin: false, sites: ["BUD"] },
    ]);
    // Three monitors, the first assigned to the demo study with one query raised (issue 44).
    expect(await count("monitors")).toBe(3);
    expect(await count("monitor_assignments")).toBe(1);
    expect(await count("queries")).toBe(1);
    // Running it again adds nothing.
    await seed(database.db, { demoAdmin: true });
    expect(await count("users")).toBe(2);
    expect(await count("monitors")).toBe(3);
    expect(await count("monitor_assignments")).toBe(1);
  });
});
