import type { WorklistData } from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../src/db/client";
import type { Session, TestApp } from "./helpers";

// The named statements are counted and remembered per process, and the files before this one in its
// worker share its modules (vitest.config.ts: isolate off): this file imports the server afresh, as
// a process of its own would start.
vi.resetModules();
const { namedStatementBudget, openPostgres, queryRows } = await import("../src/db/client");
const { fastPathsOn } = await import("../src/db/fast-paths/switch");
const { rebuildVisitSchedules } = await import("../src/resources/visit-schedule/visit-schedule");
const {
  createPatient,
  createStudy,
  createStudyPatient,
  createStudyplan,
  createTherapyArea,
  createTherapyCategory,
  createVisit,
  patientVisitInput,
} = await import("../src/seed/factories");
const { postgresCopy, startApp, twoSites, withReason } = await import("./helpers");
const { setUpProject } = await import("./study-setup");

const adminUrl = process.env.TEST_DATABASE_URL;

/**
 * Reads and writes of one record by its key go to PostgreSQL as named statements, parsed and planned
 * once per connection (issue 14). One pooled connection here, so the test sees that connection's
 * statements, and every caller is served by the same ones.
 */
// About the named statements themselves: not asked with the fast paths off (FAST_PATHS=off).
describe.skipIf(!adminUrl || !fastPathsOn)("statements prepared once per connection (PostgreSQL)", () => {
  let database: Database;
  let copy: Awaited<ReturnType<typeof postgresCopy>> | undefined;
  let t: TestApp;
  let admin: Session;
  let staffA: Session;
  let staffB: Session;
  let patientUuid: string;
  let siteAId: number;
  let siteBId: number;

  const preparedNames = async () =>
    (
      await queryRows<{ name: string }>(
        database.db,
        sql`select name from pg_prepared_statements order by name`,
      )
    ).map((row) => row.name);

  beforeAll(async () => {
    copy = await postgresCopy();
    database = openPostgres(copy.url, 1);
    t = await startApp("postgres", { database });
    const sites = await twoSites(t);
    admin = sites.admin;
    staffA = sites.staffA;
    staffB = await t.signedInUser({ siteIds: [sites.siteB.id] });
    siteAId = sites.siteA.id;
    siteBId = sites.siteB.id;
    patientUuid = (await createPatient(database.db, sites.siteA.id)).uuid as string;
  });

  afterAll(async () => {
    await t?.close();
    await database?.close();
    await copy?.drop();
  });

  it("a record read by its key is prepared once; reading it again adds no statement", async () => {
    const before = await preparedNames();
    const first = await t.request({ method: "GET", url: `/api/patients/${patientUuid}`, session: staffA });
    expect(first.status).toBe(200);
    const afterRead = await preparedNames();
    expect(afterRead.length).toBeGreaterThan(before.length);

    const again = await t.request({ method: "GET", url: `/api/patients/${patientUuid}`, session: staffA });
    expect(again.body.data).toEqual(first.body.data);
    expect(await preparedNames()).toEqual(afterRead);
  });

  it("a search is planned for its own words each time; its page's rows are read by one prepared statement", async () => {
    const [{ firstName, lastName, barcode }] = await queryRows<{
      firstName: string;
      lastName: string;
      barcode: string;
    }>(
      database.db,
      sql`select first_name as "firstName", last_name as "lastName", barcode from patients where uuid = ${patientUuid}`,
    );
    const search = (term: string) =>
      t.request<{ items: { uuid: string; barcode: string }[]; pagination: { total: number } }>({
        method: "GET",
        url: `/api/patients?format=list&searchTerm=${encodeURIComponent(term)}`,
        session: staffA,
      });
    const before = await preparedNames();
    const byName = await search(`${lastName} ${firstName}`);
    expect(byName.body.data?.items.map((row) => row.uuid)).toEqual([patientUuid]);
    expect(byName.body.data?.pagination.total).toBe(1);
    const afterSearch = await preparedNames();
    // The page's rows by their ids: one statement, named for its format and order, not for its words.
    expect(afterSearch.filter((n) => !before.includes(n))).toEqual(["patients_list_id_asc_page"]);

    const byBarcode = await search(barcode);
    expect(byBarcode.body.data?.items.map((row) => row.barcode)).toEqual([barcode]);
    expect((await search("no such patient")).body.data).toMatchObject({
      items: [],
      pagination: { total: 0 },
    });
    expect(await preparedNames()).toEqual(afterSearch);
  });

  it("a list is prepared once and answers each caller by their own sites, as they are now", async () => {
    const list = (session: Session, url = "/api/patients?format=list") =>
      t.request<{ items: { uuid: string }[] }>({ method: "GET", url, session });
    const uuids = async (session: Session) => (await list(session)).body.data?.items.map((row) => row.uuid);
    const other = await createPatient(database.db, siteBId);
    const before = await preparedNames();
    expect(await uuids(staffA)).toEqual([patientUuid]);
    const afterList = await preparedNames();
    expect(afterList.length).toBeGreaterThan(before.length);
    // Another staff member's list is the same statement; its parameters, not a plan made for the first
    // caller, decide the rows.
    expect(await uuids(staffB)).toEqual([other.uuid]);
    expect(await uuids(staffA)).toEqual([patientUuid]);
    expect(await preparedNames()).toEqual(afterList);
  });

  it("lists beyond their budget of named texts go unnamed, and never take the records' budget", async () => {
    const budget = namedStatementBudget.list;
    namedStatementBudget.list = 0;
    try {
      const before = await preparedNames();
      const sites = await t.request({
        method: "GET",
        url: "/api/sites?order=name&direction=desc",
        session: admin,
      });
      expect(sites.status).toBe(200);
      expect(await preparedNames()).toEqual(before);
      // A save's statements are still named: lists have a budget of their own.
      const created = await t.request({
        method: "POST",
        url: "/api/therapy-categories",
        session: admin,
        payload: { code: "PRB", name: "Prepared budget" },
      });
      expect(created.status).toBe(201);
      expect((await preparedNames()).length).toBeGreaterThan(before.length);
    } finally {
      namedStatementBudget.list = budget;
    }
  });

  it("the one prepared read answers each caller by their own sites, as they are now", async () => {
    const read = (session: Session) =>
      t.request({ method: "GET", url: `/api/patients/${patientUuid}`, session });
    expect((await read(staffA)).status).toBe(200);
    expect((await read(staffB)).status).toBe(404);
    expect((await read(admin)).status).toBe(200);
    expect((await read(staffA)).status).toBe(200);

    // Site A taken from its staff member: the next read by the same statement no longer shows the patient.
    await database.db.execute(sql`delete from user_sites where user_id = ${staffA.userId}`);
    expect((await read(staffA)).status).toBe(404);
  });

  type PatientRecord = Record<string, unknown> & { version: number };
  /** The patient as the administrator reads it. */
  const readPatient = async () =>
    (
      await t.request<Record<string, unknown>>({
        method: "GET",
        url: `/api/patients/${patientUuid}`,
        session: admin,
      })
    ).body.data as PatientRecord;
  /** The administrator saves `record` at `version` with other notes. */
  const saveNotes = (record: PatientRecord, version: number, notes: string) =>
    t.request<Record<string, unknown>>({
      method: "PUT",
      url: `/api/patients/${patientUuid}`,
      session: admin,
      headers: withReason(),
      payload: { ...record, version, patientDetail: { ...(record.patientDetail as object), notes } },
    });

  it("saves through prepared statements keep the record's versions in turn", async () => {
    const record = await readPatient();
    const save = (version: number, notes: string) => saveNotes(record, version, notes);
    const first = await save(record.version, "first");
    expect(first.status).toBe(200);
    expect(first.body.data?.version).toBe(record.version + 1);
    const second = await save(record.version + 1, "second");
    expect(second.status).toBe(200);
    expect(second.body.data?.patientDetail).toMatchObject({ notes: "second" });
    // The first save's version is stale now, whichever statement checks it.
    expect((await save(record.version, "stale")).status).toBe(409);
  });

  it("a connection a save named its statements on names nothing for the next transaction of its pool", async () => {
    const record = await readPatient();
    // The pool's one connection, checked out by the save's named transaction and given back.
    const saved = await saveNotes(record, record.version, "named");
    expect(saved.status).toBe(200);
    const before = await preparedNames();
    // A transaction of the plain Db on that same connection: its statement with a value stays unnamed.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select ${41}::int + 1 as plain_transaction`);
    });
    expect(await preparedNames()).toEqual(before);
  });

  it("a visit save's read of the patient's windows keeps one generic plan, not one planned per save", async () => {
    const db = database.db;
    const study = await createStudy(db, await setUpProject(t, "PS-2026-001"), { variant: "NORMAL" });
    const visitIds: number[] = [];
    for (let i = 0; i < 8; i++) visitIds.push((await createVisit(db, study.id, { name: `Day ${i * 7}` })).id);
    await createStudyplan(
      db,
      study.id,
      visitIds,
      visitIds.slice(1).map(() => [7, 1, 1]),
    );
    const patient = await createPatient(db, (await twoSites(t)).siteA.id);
    await createStudyPatient(db, { patientId: patient.id, studyId: study.id }, { startDate: "2026-01-05" });
    // Each in its window (day 0, then day 7 ± 1 from it): no save writes a deviation.
    for (const [index, visitId] of visitIds.entries()) {
      const saved = await t.request({
        method: "POST",
        url: "/api/patient-visits",
        session: admin,
        payload: patientVisitInput(
          { patientId: patient.id, studyId: study.id, visitId },
          { visitDate: index === 0 ? "2026-01-05" : "2026-01-12" },
        ),
      });
      expect(saved.status).toBe(201);
    }
    // The visit's insert, which also reads its plan and the patient's recorded visits (as JSON).
    const [read] = await queryRows<{ generic: number; custom: number }>(
      db,
      sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements
        where statement like '%insert into "patient_visits"%' and statement like '%studyplan_schedule_entries%'`,
    );
    // PostgreSQL plans a named statement's first five runs for their values, then keeps a generic
    // plan if it costs no more; planned afresh, the eight saves would show eight custom plans.
    expect(read.custom).toBeLessThanOrEqual(5);
    expect(read.generic).toBeGreaterThan(0);
  });

  it("the worklist's first page is one prepared statement that answers each caller by their own sites; other pages go unnamed", async () => {
    const db = database.db;
    const study = await createStudy(db, await setUpProject(t, "PS-2026-002"), { variant: "NORMAL" });
    const visitIds: number[] = [];
    for (let i = 0; i < 3; i++) visitIds.push((await createVisit(db, study.id, { name: `Week ${i}` })).id);
    await createStudyplan(db, study.id, visitIds, [
      [7, 1, 1],
      [14, 1, 1],
    ]);
    // Staff of site A of their own: an earlier test takes site A from staffA.
    const staffOfA = await t.signedInUser({ siteIds: [siteAId] });
    const ownPatient = await createPatient(db, siteAId);
    const otherPatient = await createPatient(db, siteBId);
    for (const patient of [ownPatient, otherPatient])
      await createStudyPatient(db, { patientId: patient.id, studyId: study.id }, { startDate: "2026-03-02" });
    await rebuildVisitSchedules(db, { studyId: study.id });
    const patientsOn = async (session: Session, query = "") => {
      const res = await t.request<WorklistData>({
        method: "GET",
        url: `/api/worklist?asOf=2026-03-09${query}`,
        session,
      });
      expect(res.status).toBe(200);
      return new Set(res.body.data?.items.map((row) => row.patientUuid));
    };

    const before = await preparedNames();
    expect(await patientsOn(staffOfA)).toContain(ownPatient.uuid);
    const afterFirst = await preparedNames();
    expect(afterFirst.length).toBe(before.length + 1);
    // Staff of the other site by the same statement: their own patient, not a plan made for site A.
    expect(await patientsOn(staffB)).toEqual(new Set([otherPatient.uuid]));
    expect(await patientsOn(staffOfA)).not.toContain(otherPatient.uuid);
    expect(await preparedNames()).toEqual(afterFirst);
    // A later page and a search are planned for what they ask, unnamed.
    expect((await patientsOn(staffB, "&pagesize=1&page=2")).size).toBe(1);
    expect(await patientsOn(staffB, `&search=${otherPatient.barcode}`)).toEqual(new Set([otherPatient.uuid]));
    expect(await preparedNames()).toEqual(afterFirst);
  });

  /**
   * A save, a read and a list of the patient, as staff do them: each answers, whatever came before.
   * The save comes first, with the record as last read: a statement refused outside a transaction
   * costs pg-pool its connection (and the statements on it), so a save after a read would not meet
   * a refused statement.
   */
  let record: (Record<string, unknown> & { version: number }) | undefined;
  async function saveReadAndList() {
    record ??= (
      await t.request<typeof record>({ method: "GET", url: `/api/patients/${patientUuid}`, session: admin })
    ).body.data;
    const version = record?.version as number;
    const saved = await t.request<{ version: number }>({
      method: "PUT",
      url: `/api/patients/${patientUuid}`,
      session: admin,
      headers: withReason(),
      payload: record,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data?.version).toBe(version + 1);
    const read = await t.request<typeof record>({
      method: "GET",
      url: `/api/patients/${patientUuid}`,
      session: admin,
    });
    expect(read.status).toBe(200);
    expect(read.body.data?.version).toBe(version + 1);
    record = read.body.data;
    const list = await t.request<{ items: { uuid: string }[] }>({
      method: "GET",
      url: "/api/patients?format=list",
      session: admin,
    });
    expect(list.status).toBe(200);
    expect(list.body.data?.items.map((row) => row.uuid)).toContain(patientUuid);
  }

  it("a connection that lost its statements (DEALLOCATE ALL, as a pooler's reset does) prepares them again", async () => {
    await saveReadAndList();
    // The one pooled connection forgets every statement the driver believes it has prepared.
    await database.db.execute(sql`deallocate all`);
    expect(await preparedNames()).toEqual([]);
    await saveReadAndList();
    await saveReadAndList();
  });

  /** A statement from another process (its own connection), e.g. another server's migration. */
  async function asAnotherProcess(statement: string) {
    const other = new pg.Client({ connectionString: copy?.url });
    await other.connect();
    try {
      await other.query(statement);
    } finally {
      await other.end();
    }
  }

  it("a column widened while the server runs (another process's migration) does not break its statements", async () => {
    await saveReadAndList();
    // PostgreSQL refuses a prepared statement whose result type changed ("cached plan must not change
    // result type"), on that connection for good: here another process widens a column it reads.
    await asAnotherProcess("alter table patients alter column first_name type varchar(60)");
    await saveReadAndList();
    await saveReadAndList();
  });

  it("a save whose statements meet a widened column one after another still answers at once", async () => {
    // A therapy category's save reads it before (one statement) and writes and reads it back (another):
    // after its column widens, both are refused in turn, each renamed as it is met.
    const url = "/api/therapy-categories";
    const created = await t.request<{ uuid: string; version: number }>({
      method: "POST",
      url,
      session: admin,
      payload: { name: "Widened", code: "WDN" },
    });
    expect(created.status).toBe(201);
    const save = (version: number, name: string) =>
      t.request<{ version: number; name: string }>({
        method: "PUT",
        url: `${url}/${created.body.data.uuid}`,
        session: admin,
        payload: { uuid: created.body.data.uuid, version, name, code: "WDN" },
      });
    expect((await save(created.body.data.version, "Widened 1")).status).toBe(200);
    await asAnotherProcess("alter table therapy_categories alter column name type varchar(60)");
    const saved = await save(created.body.data.version + 1, "Widened 2");
    expect([saved.status, saved.body.data?.name]).toEqual([200, "Widened 2"]);
  });

  it("a save that loses a deadlock to another transaction is made again once that one is done, not refused", async () => {
    const first = await createTherapyCategory(database.db);
    const second = await createTherapyCategory(database.db);
    const area = await createTherapyArea(database.db, first.id as number);
    const other = new pg.Client({ connectionString: copy?.url });
    await other.connect();
    try {
      // Another transaction holds the category the save is about to refer to…
      await other.query("begin");
      await other.query("select id from therapy_categories where id = $1 for update", [second.id]);
      const saving = t.request<{ version: number; therapyCategoryId: number }>({
        method: "PUT",
        url: `/api/therapy-areas/${area.uuid}`,
        session: admin,
        payload: {
          uuid: area.uuid,
          version: area.version,
          name: area.name,
          code: area.code,
          therapyCategoryId: second.id,
        },
      });
      // …and, once the save waits for it holding the area, asks for the area: a deadlock, which
      // PostgreSQL breaks (after deadlock_timeout, 1 s) by rolling back the save, the first to wait.
      await waitUntil(async () => (await waiting(other)) > 0);
      await other.query("select id from therapy_areas where id = $1 for update", [area.id]);
      await other.query("commit");
      const saved = await saving;
      expect([saved.status, saved.body.data?.therapyCategoryId, saved.body.data?.version]).toEqual([
        200,
        second.id,
        (area.version as number) + 1,
      ]);
    } finally {
      await other.end();
    }
  });
});

/** Sessions of the database other than `client`'s that wait for a lock. */
async function waiting(client: pg.Client) {
  const { rows } = await client.query(
    `select count(*)::int as n from pg_stat_activity
     where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
  );
  return rows[0].n as number;
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000) {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
