import { countBound, type ListData } from "@trialdesk/domain";
import { eq, inArray, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import {
  patientVisitScope,
  patientVisitsResource,
} from "../src/resources/patient-visits/patient-visits.resource";
import { patientVisits } from "../src/resources/patient-visits/patient-visits.table";
import { patientsResource } from "../src/resources/patients/patients.resource";
import { patients } from "../src/resources/patients/patients.table";
import { readsOtherTables, resourceService } from "../src/resources/resource";
import { studyPatientsResource } from "../src/resources/study-patients/study-patients.resource";
import { createSite, createStudy, createVisit } from "../src/seed/factories";
import { bulkLoad, databaseKinds, type Session, startApp, type TestApp } from "./helpers";
import { setUpProject } from "./study-setup";

type PatientRow = { id: number; lastName: string; firstName: string };
type PlanNode = {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  "Parent Relationship"?: string;
  Plans?: PlanNode[];
};

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/**
 * The generic list at volume (issue 14): names in the users' language, the bounded count, deep pages
 * picked by id, and the SQL's order served by an index (EXPLAIN).
 */
describe.each(databaseKinds)("lists at volume on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let bigSite: { id: number };
  let smallSite: { id: number };
  const bigSiteSize = countBound + 50;

  const list = async <T = PatientRow>(resource: string, query: string) => {
    const res = await t.request<ListData<T>>({
      method: "GET",
      url: `/api/${resource}?${query}`,
      session: admin,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    t = await startApp(kind);
    admin = await t.signedInUser({ isAdmin: true });
    bigSite = await createSite(t.database.db);
    smallSite = await createSite(t.database.db);
    const db = t.database.db;
    // Just past the count bound, in SQL: the API would take minutes for ten thousand patients.
    await bulkLoad(db, async (tx) => {
      await tx.execute(sql`insert into patients (uuid, barcode, recorder_site_id, first_name, last_name)
        select 'pt-' || gen_random_uuid(), 'VOL-' || lpad(g::text, 6, '0'), ${bigSite.id},
          (array['Anna', 'Béla', 'Ádám', 'Zsófia'])[1 + g % 4],
          (array['Kovács', 'Balogh', 'Balázs', 'Nagy', 'Ábel', 'Zala', 'Orbán'])[1 + g % 7]
        from generate_series(1, ${bigSiteSize}) g`);
    });
    await db.execute(sql`insert into patients (uuid, barcode, recorder_site_id, first_name, last_name)
      values ('pt-' || gen_random_uuid(), 'SML-1', ${smallSite.id}, 'Péter', 'Balogh'),
        ('pt-' || gen_random_uuid(), 'SML-2', ${smallSite.id}, 'Anna', 'Balázs'),
        ('pt-' || gen_random_uuid(), 'SML-3', ${smallSite.id}, 'Ede', 'Ádám'),
        ('pt-' || gen_random_uuid(), 'SML-4', ${smallSite.id}, 'Anna', 'Adams'),
        ('pt-' || gen_random_uuid(), 'SML-5', ${smallSite.id}, 'Ernő', 'Zala')`);
    const project = await setUpProject(t, "VOLUME-001");
    const study = await createStudy(db, project as never);
    const screening = await createVisit(db, study.id, { name: "Screening", visitTypeId: 20 });
    const week = await createVisit(db, study.id, { name: "Week 2", visitTypeId: 60 });
    // Two visits for each of the first 3,000 patients of the big site, and one for each small-site patient.
    await bulkLoad(db, async (tx) => {
      await tx.execute(sql`insert into patient_visits (uuid, patient_id, study_id, visit_id, visit_date, visit_time)
        select 'pv-' || gen_random_uuid(), p.id, ${study.id}, v.id, date '2024-01-01' + (p.id * 7 + v.id) % 600,
          time '08:00' + (p.id % 500) * interval '1 minute'
        from (select id from patients where recorder_site_id = ${bigSite.id} order by id limit 3000) p
        cross join (values (${screening.id}::int), (${week.id}::int)) v(id)`);
      await tx.execute(sql`insert into patient_visits (uuid, patient_id, study_id, visit_id, visit_date)
        select 'pv-' || gen_random_uuid(), id, ${study.id}, ${screening.id}, date '2025-01-01'
        from patients where recorder_site_id = ${smallSite.id}`);
    });
  });
  afterAll(async () => t?.close());

  it("sorts names in the users' language: Ádám by Adams, Balázs before Balogh", async () => {
    const asc = await list("patients", `format=list&siteId=${smallSite.id}&order=name`);
    expect(asc.items.map((p) => `${p.lastName} ${p.firstName}`)).toEqual([
      "Ádám Ede",
      "Adams Anna",
      "Balázs Anna",
      "Balogh Péter",
      "Zala Ernő",
    ]);
    const desc = await list("patients", `format=list&siteId=${smallSite.id}&order=name&direction=desc`);
    expect(desc.items.map((p) => p.lastName)).toEqual(["Zala", "Balogh", "Balázs", "Adams", "Ádám"]);
  });

  it("counts exactly up to the bound; beyond it answers the least number known to exist", async () => {
    expect((await list("patients", `format=list&siteId=${smallSite.id}`)).pagination.total).toBe(5);

    const first = await list("patients", `format=list&siteId=${bigSite.id}&pagesize=50`);
    expect(first.items).toHaveLength(50);
    expect(first.pagination.total).toBe(countBound + 1);

    // The last page holds rows 10,001 to 10,050: reading it shows exactly how many there are.
    const last = await list("patients", `format=list&siteId=${bigSite.id}&pagesize=50&page=201`);
    expect(last.items).toHaveLength(50);
    expect(last.pagination.total).toBe(bigSiteSize);

    const past = await list("patients", `format=list&siteId=${bigSite.id}&pagesize=50&page=202`);
    expect(past.items).toHaveLength(0);
    expect(past.pagination.total).toBe(countBound + 1);
  });

  it("answers deep pages with the rows the order puts there", async () => {
    const page = await list("patients", `format=list&siteId=${bigSite.id}&pagesize=50&order=name&page=150`);
    const expected = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from patients where recorder_site_id = ${bigSite.id}
        order by last_name collate "und-x-icu", first_name collate "und-x-icu", id offset ${149 * 50} limit 50`,
    );
    expect(page.items.map((p) => p.id)).toEqual(expected.map((r) => r.id));
    // And the same page backwards from the end.
    const back = await list(
      "patients",
      `format=list&siteId=${bigSite.id}&pagesize=50&order=name&direction=desc`,
    );
    const [{ id: lastId }] = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from patients where recorder_site_id = ${bigSite.id}
        order by last_name collate "und-x-icu" desc, first_name collate "und-x-icu" desc, id desc limit 1`,
    );
    expect(back.items[0].id).toBe(lastId);
  });

  it("counts patient visits of a site without the joins, and with them when a search needs them", async () => {
    type VisitRow = { patientVisitId: number; patientName: string };
    const site = await list<VisitRow>("patient-visits", `siteId=${smallSite.id}`);
    expect(site.pagination.total).toBe(5);
    const searched = await list<VisitRow>("patient-visits", `siteId=${smallSite.id}&searchTerm=Bal`);
    expect(new Set(searched.items.map((v) => v.patientName))).toEqual(
      new Set(["Balázs Anna", "Balogh Péter"]),
    );
    expect(searched.pagination.total).toBe(2);
    const lastPage = await list<VisitRow>("patient-visits", `siteId=${bigSite.id}&pagesize=50&page=120`);
    expect(lastPage.pagination.total).toBe(6_000);
    expect(lastPage.items).toHaveLength(50);
    const past = await list<VisitRow>("patient-visits", `siteId=${bigSite.id}&pagesize=50&page=121`);
    expect(past.pagination.total).toBe(6_000);
    expect(past.items).toHaveLength(0);
  });

  it("knows which filters read only the listed table (subqueries keep their own tables)", () => {
    expect(readsOtherTables(eq(patientVisits.patientId, 1), patientVisits)).toBe(false);
    expect(
      readsOtherTables(patientVisitScope({ isAdmin: false, siteIds: [1] } as never), patientVisits),
    ).toBe(false);
    expect(readsOtherTables(eq(patients.lastName, "Kiss"), patientVisits)).toBe(true);
    expect(
      readsOtherTables([inArray(patientVisits.id, [1]), sql`${patients.firstName} = 'x'`], patientVisits),
    ).toBe(true);
  });

  it("EXPLAIN: a searched word is folded once, and the search text's trigram index finds it", async () => {
    // As containsWord writes it: the word's accents and case folded away, as the stored text's are.
    const where = sql`search_text like search_fold(${"%ERNŐ%"})`;
    const found = await queryRows<{ barcode: string }>(
      t.database.db,
      sql`select barcode from patients where ${where}`,
    );
    expect(found.map((p) => p.barcode)).toEqual(["SML-5"]);
    const plan = await explained({
      sql: "select id from patients where search_text like search_fold($1)",
      params: ["%ERNŐ%"],
    });
    expect(
      nodes(plan).map((n) => n["Index Name"]),
      JSON.stringify(plan),
    ).toContain("patients_search_text_trgm");
  });

  /** A list call through a logging copy of the database connection: its answer and the SQL it sent. */
  async function loggedList(def: never, query: Record<string, string>) {
    const statements: { sql: string; params: unknown[] }[] = [];
    const logger = { logQuery: (text: string, params: unknown[]) => statements.push({ sql: text, params }) };
    const client = (t.database.db as unknown as { $client: never }).$client;
    const db =
      kind === "pglite"
        ? drizzlePglite({ client, casing: "snake_case", logger })
        : drizzlePg({ client, casing: "snake_case", logger });
    const answer = await resourceService(db as never, def).list(
      query,
      { id: 0, isAdmin: true, siteIds: [] } as never,
      50,
    );
    return { answer, statements };
  }

  it("reads a search's matches once when its page ends the list, and counts them beside a full page", async () => {
    const search = async (query: Record<string, string>) => {
      const { answer, statements } = await loggedList(patientsResource as never, {
        format: "list",
        siteId: String(bigSite.id),
        ...query,
      });
      // Each condition on the search text in what was sent reads the matches once.
      const reads = statements.flatMap((s) => s.sql.match(/search_text/g) ?? []).length;
      return { total: answer.pagination.total, ids: answer.items.map((p) => (p as PatientRow).id), reads };
    };
    const matching = async (word: string, order = sql`id`) =>
      (
        await queryRows<{ id: number }>(
          t.database.db,
          sql`select id from patients where recorder_site_id = ${bigSite.id}
            and search_text like search_fold(${`%${word}%`}) order by ${order}`,
        )
      ).map((r) => r.id);

    // One patient by barcode: the page is the whole answer, and its length the count.
    const one = await search({ searchTerm: "VOL-000042" });
    expect(one).toEqual({ total: 1, ids: await matching("VOL-000042"), reads: 1 });
    const none = await search({ searchTerm: "VOL-999999" });
    expect(none).toEqual({ total: 0, ids: [], reads: 1 });

    // 2,513 Annas: a full page, counted beside it; the last page ends the list and tells the count.
    const annas = await matching("anna");
    expect(annas.length).toBeGreaterThan(100);
    const first = await search({ searchTerm: "anna", pagesize: "50" });
    expect(first).toEqual({ total: annas.length, ids: annas.slice(0, 50), reads: 2 });
    const lastPage = Math.ceil(annas.length / 50);
    const last = await search({ searchTerm: "anna", pagesize: "50", page: String(lastPage) });
    expect(last).toEqual({ total: annas.length, ids: annas.slice((lastPage - 1) * 50), reads: 1 });
    const past = await search({ searchTerm: "anna", pagesize: "50", page: String(lastPage + 1) });
    expect(past).toEqual({ total: annas.length, ids: [], reads: 2 });

    // Every patient has a "vo" (the barcode's VOL-; a word of one letter is not searched, decision
    // 242): past the bound the first page answers the least number known, and the last page (rows
    // 10,001 to 10,050) the exact one.
    const all = await search({ searchTerm: "vo", pagesize: "50" });
    expect(all.total).toBe(countBound + 1);
    const end = await search({ searchTerm: "vo", pagesize: "50", page: "201" });
    expect(end).toMatchObject({ total: bigSiteSize, reads: 1 });
    expect(end.ids).toHaveLength(50);
  });

  it("looks up a search's patients first and reads their visits by patient; past the list bound, by a subquery", async () => {
    type VisitRow = { patientVisitId: number };
    const search = async (word: string) => {
      const { answer, statements } = await loggedList(patientVisitsResource as never, {
        siteId: String(bigSite.id),
        searchTerm: word,
        pagesize: "50",
      });
      const expected = await queryRows<{ id: number }>(
        t.database.db,
        sql`select pv.id from patient_visits pv join patients p on p.id = pv.patient_id
          where p.recorder_site_id = ${bigSite.id} and p.search_text like search_fold(${`%${word}%`})
          order by pv.visit_date desc, pv.visit_time desc, pv.id desc`,
      );
      // The list's statements that read the search text themselves (past the bound only).
      const reads = statements.filter(
        (s) => s.sql.includes('"patient_visits"') && s.sql.includes("search_text"),
      ).length;
      const ids = (answer.items as VisitRow[]).map((v) => v.patientVisitId);
      return { ids, total: answer.pagination.total, reads, expected: expected.map((r) => r.id) };
    };

    const one = await search("VOL-000042");
    expect(one.expected).toHaveLength(2);
    expect(one).toMatchObject({ ids: one.expected, total: 2, reads: 0 });

    // 2,513 Annas are more than a list of ids takes: the list asks for them by a subquery.
    const annas = await search("Anna");
    expect(annas.expected.length).toBeGreaterThan(50);
    expect(annas.total).toBe(annas.expected.length);
    expect(annas.ids).toEqual(annas.expected.slice(0, 50));
    expect(annas.reads).toBeGreaterThan(0);

    // A word too short for the trigram index, in every patient: matched along the list's order.
    const short = await search("vo");
    expect(short.total).toBe(short.expected.length);
    expect(short.ids).toEqual(short.expected.slice(0, 50));
    expect(short.reads).toBeGreaterThan(0);

    const none = await search("VOL-999999");
    expect(none).toMatchObject({ ids: [], total: 0, reads: 0 });
  });

  /** The SQL the list sends for its page, planned by EXPLAIN. */
  async function listSql(def: never, query: Record<string, string>) {
    const { statements } = await loggedList(def, query);
    const rows = statements.find((s) => s.sql.includes("= any(array(")) as (typeof statements)[number];
    // The page's ids: the subquery that walks the order (the outer query only sorts those 51 rows).
    const plan = await explained(rows);
    // Beside it, the bounded count that rides along with the page (an aggregate).
    const initPlan = nodes(plan).find(
      (n) => n["Parent Relationship"] === "InitPlan" && !nodes(n).some((m) => m["Node Type"] === "Aggregate"),
    ) as PlanNode;
    expect(initPlan, JSON.stringify(plan)).toBeDefined();
    return nodes(initPlan);
  }
  const literal = (value: unknown) =>
    typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  /** The plan of the statement that read a searched list's page (its ids, in the list's order). */
  async function searchedPagePlan(statements: { sql: string; params: unknown[] }[]) {
    const page = statements.find((s) => s.sql.includes("search_text") && s.sql.includes("order by"));
    expect(page).toBeDefined();
    return explained(page as (typeof statements)[number]);
  }
  /** The plan of a statement, its parameters written in. */
  async function explained(statement: { sql: string; params: unknown[] }) {
    const text = statement.sql.replace(/\$(\d+)/g, (_, n) => literal(statement.params[Number(n) - 1]));
    const [row] = await queryRows<{ "QUERY PLAN": unknown }>(
      t.database.db,
      sql.raw(`explain (format json) ${text}`),
    );
    const planJson = row["QUERY PLAN"];
    return (typeof planJson === "string" ? JSON.parse(planJson) : planJson)[0].Plan as PlanNode;
  }

  it("EXPLAIN: a site's patients by name come in index order, without a sort", async () => {
    const page = await listSql(patientsResource as never, {
      format: "list",
      siteId: String(bigSite.id),
      order: "name",
      page: "100",
    });
    expect(page.map((n) => n["Node Type"])).not.toContain("Sort");
    expect(page.map((n) => n["Node Type"])).not.toContain("Incremental Sort");
    expect(page.map((n) => n["Index Name"])).toContain("patients_recorder_site_id_name_idx");
  });

  it("EXPLAIN: a search by name tests the search text from the name index, without reading the rows", async () => {
    // Zala: the last of the names, so the walk along the name order passes every other patient first.
    const query = { format: "list", siteId: String(bigSite.id), order: "name", searchTerm: "zala" };
    const { answer, statements } = await loggedList(patientsResource as never, query);
    const zalas = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from patients where recorder_site_id = ${bigSite.id} and last_name = 'Zala'
        order by first_name collate "und-x-icu", id limit 50`,
    );
    expect(answer.items.map((p) => (p as PatientRow).id)).toEqual(zalas.map((p) => p.id));
    const plan = await searchedPagePlan(statements);
    const walk = nodes(plan).find((n) => n["Index Name"] === "patients_recorder_site_id_name_idx");
    expect(walk?.["Node Type"], JSON.stringify(plan)).toBe("Index Only Scan");
  });

  it("EXPLAIN: the lookup of assigned patients asks a found patient's active assignment by its own index", async () => {
    // Every other patient of the big site in the study, and closed assignments for some of the rest.
    const [{ studyId }] = await queryRows<{ studyId: number }>(
      t.database.db,
      sql`select study_id as "studyId" from patient_visits limit 1`,
    );
    await bulkLoad(
      t.database.db,
      async (tx) => {
        await tx.execute(sql`insert into study_patients (uuid, study_id, patient_id, active, close_reason)
          select 'sp-' || gen_random_uuid(), ${studyId}, id, id % 2 = 0, case when id % 2 = 0 then null else 'EOS' end
          from patients where recorder_site_id = ${bigSite.id} and (id % 2 = 0 or id % 10 = 1)`);
      },
      "vacuum analyze study_patients",
    );
    const lookup = (searchTerm: string) =>
      loggedList(patientsResource as never, {
        format: "select",
        siteId: String(bigSite.id),
        onlyAssigned: "true",
        order: "name",
        searchTerm,
      });
    const assigned = await queryRows<{ id: number; barcode: string }>(
      t.database.db,
      sql`select id, barcode from patients where recorder_site_id = ${bigSite.id} and last_name = 'Zala'
        and id % 2 = 0 order by first_name collate "und-x-icu", id`,
    );
    const zalas = (await lookup("zala")).answer;
    expect(zalas.pagination.total).toBe(assigned.length);
    expect(zalas.items.map((p) => (p as PatientRow).id)).toEqual(assigned.slice(0, 50).map((p) => p.id));

    // One patient by barcode: its active assignment is asked from the partial index alone, not found
    // by the patient's index among the closed ones and read from the table.
    const { answer, statements } = await lookup(assigned[0].barcode);
    expect(answer.items.map((p) => (p as PatientRow).id)).toEqual([assigned[0].id]);
    const plan = nodes(await searchedPagePlan(statements));
    const probes = plan.filter((n) => n["Relation Name"] === "study_patients");
    expect(
      probes.map((n) => [n["Node Type"], n["Index Name"]]),
      JSON.stringify(plan),
    ).toEqual([["Index Only Scan", "study_patients_active_patient_id_idx"]]);
  });

  // After the assigned patients' lookup above, which assigned patients of the big site to a study.
  it("EXPLAIN: study patients searched by a common name are counted from their indexes, not row by row", async () => {
    const search = async (searchTerm: string) => {
      const { answer, statements } = await loggedList(studyPatientsResource as never, {
        siteId: String(bigSite.id),
        searchTerm,
      });
      const words = searchTerm.split(" ");
      const expected = await queryRows<{ id: number }>(
        t.database.db,
        sql`select sp.id from study_patients sp join patients p on p.id = sp.patient_id
          where p.recorder_site_id = ${bigSite.id}
            and ${sql.join(
              words.map((word) => sql`p.search_text like search_fold(${`%${word}%`})`),
              sql` and `,
            )}
          order by sp.id`,
      );
      const ids = answer.items.map((row) => (row as { id: number }).id);
      const count = statements.find((s) => s.sql.includes("count(*)") && s.sql.includes("search_text"));
      return { ids, total: answer.pagination.total, expected: expected.map((r) => r.id), count };
    };
    // Assignments of the same patient found by each of its indexes; by the row, a filter on every one.
    const bitmapOfPatients = (plan: PlanNode) =>
      nodes(plan).some(
        (n) => n["Node Type"] === "Bitmap Index Scan" && n["Index Name"] === "study_patients_patient_id_idx",
      );

    // 2,513 Annas, past the bound of a list of ids: the count asks them from the patient index and
    // ORs them with the screen and random numbers' trigram indexes.
    const annas = await search("anna");
    expect(annas.expected.length).toBeGreaterThan(50);
    expect(annas.total).toBe(annas.expected.length);
    expect(annas.ids).toEqual(annas.expected.slice(0, 50));
    expect(annas.count).toBeDefined();
    const plan = await explained(annas.count as NonNullable<typeof annas.count>);
    expect(bitmapOfPatients(plan), JSON.stringify(plan)).toBe(true);

    // Two such words (every barcode has "VOL"): one asked by its index, the other tested by its hash.
    const both = await search("anna vol");
    expect(both.expected.length).toBeGreaterThan(50);
    expect(both.total).toBe(both.expected.length);
    expect(both.ids).toEqual(both.expected.slice(0, 50));
  });

  it("EXPLAIN: a site's patient visits newest first come backwards along the visit-date index", async () => {
    const page = await listSql(patientVisitsResource as never, { siteId: String(bigSite.id) });
    expect(page.map((n) => n["Node Type"])).not.toContain("Sort");
    expect(page.map((n) => n["Node Type"])).not.toContain("Incremental Sort");
    const scan = page.find((n) => n["Index Name"] === "patient_visits_visit_date_idx");
    expect(scan?.["Node Type"]).toMatch(/^Index (Only )?Scan$/);
  });
});
