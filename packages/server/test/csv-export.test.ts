import zlib from "node:zlib";
import type { ListData, WorklistData } from "@trialdesk/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvCell } from "../src/http/csv";
import {
  createPatient,
  createSite,
  createStudy,
  createStudyPatient,
  createStudyplan,
  createTherapyCategory,
  createVisit,
  patientInput,
} from "../src/seed/factories";
import { databaseKinds, type Session, startApp, type TestApp, testConfig, twoSites } from "./helpers";
import { setUpProject } from "./study-setup";

const { exportBatchRows } = testConfig();

const bom = Buffer.from([0xef, 0xbb, 0xbf]);

/** The patients list's columns as the web list sends them: [key, title]. */
const patientColumns = [
  ["id", "Id"],
  ["barcode", "Barcode"],
  ["name", "Name"],
  ["birthDate", "Birth date"],
  ["status", "Status"],
];

/** Splits a CSV body whose cells hold no quotes, commas or line breaks. */
/** The cells of each line, a quoted cell's quotes taken off (the exports' cells hold no line break). */
const plainRows = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter(Boolean)
    .map((line) =>
      (line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? [])
        .filter((cell, i, all) => cell !== "" || i < all.length - 1)
        .map((cell) => cell.replace(/,$/, ""))
        .map((cell) => (cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell)),
    );

describe("CSV cells", () => {
  it("quotes commas, quotes and line breaks (RFC 4180) and keeps other text as it is", () => {
    expect(csvCell("Kiss Anna")).toBe("Kiss Anna");
    expect(csvCell("Smith, John")).toBe('"Smith, John"');
    // Excel in Hungarian, Austrian or Polish settings splits on semicolons (issue 46).
    expect(csvCell("Kiss; Anna")).toBe('"Kiss; Anna"');
    expect(csvCell('the "big" one')).toBe('"the ""big"" one"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("Árvíztűrő tükörfúrógép")).toBe("Árvíztűrő tükörfúrógép");
  });

  it("turns text a spreadsheet would run as a formula into text with a leading apostrophe", () => {
    expect(csvCell("=1+2")).toBe("'=1+2");
    expect(csvCell("+36 30 123 4567")).toBe("'+36 30 123 4567");
    expect(csvCell("-5")).toBe("'-5");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("\r=1")).toBe('"\'\r=1"');
    expect(csvCell('=HYPERLINK("http://x", "y")')).toBe('"\'=HYPERLINK(""http://x"", ""y"")"');
    expect(csvCell("a=b")).toBe("a=b");
  });
});

describe.each(databaseKinds)("CSV exports on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staffA: Session;
  let siteA: { id: number };
  let siteB: { id: number };
  /** More patients than one export batch, so the export reads several. */
  const patientCount = exportBatchRows + 20;

  const exportOf = (path: string, query: Record<string, string>, session: Session, headers = {}) =>
    t.app.inject({
      method: "GET",
      url: `/api/${path}/export?${new URLSearchParams(query)}`,
      headers: { authorization: `Bearer ${session.accessToken}`, ...headers },
    });
  const patientsExport = (query: Record<string, string>, session = staffA) =>
    exportOf("patients", { format: "list", columns: JSON.stringify(patientColumns), ...query }, session);
  /** The ids of every page of the list, in turn: what the export must give. */
  async function listedIds(query: Record<string, string>, session = staffA) {
    const ids: number[] = [];
    for (let page = 1; ; page++) {
      const res = await t.request<ListData<{ id: number }>>({
        method: "GET",
        url: `/api/patients?${new URLSearchParams({ format: "list", pagesize: "100", page: String(page), ...query })}`,
        session,
      });
      expect(res.status).toBe(200);
      ids.push(...res.body.data.items.map((item) => item.id));
      if (res.body.data.items.length < 100) return ids;
    }
  }

  beforeAll(async () => {
    t = await startApp(kind);
    const db = t.database.db;
    ({ siteA, siteB, admin, staffA } = await twoSites(t));
    // Few names and birth dates, many alike; birth dates seldom missing, SSNs mostly: the batch
    // boundary falls among values and among nulls, ascending (nulls last) and descending (first).
    const lastNames = ["Ádám", "Balázs", "Balogh", "Adam"];
    for (let i = 0; i < patientCount; i++) {
      const input = patientInput(siteA.id);
      await createPatient(db, siteA.id, {
        patientDetail: {
          ...input.patientDetail,
          lastName: lastNames[i % lastNames.length],
          firstName: i % 7 === 0 ? "Éva" : "Anna",
          birthDate: i % 40 === 0 ? null : `19${50 + (i % 40)}-0${1 + (i % 9)}-1${i % 10}`,
          ssn: i % 40 === 1 ? `1${String(i).padStart(8, "0")}` : null,
        },
      });
    }
    const other = patientInput(siteB.id);
    await createPatient(db, siteB.id, {
      patientDetail: { ...other.patientDetail, lastName: "Othersite", firstName: "Olga" },
    });
  }, 120_000);
  afterAll(async () => t?.close());

  it("streams every matching row, not a page, as UTF-8 CSV with a byte-order mark and the list's titles", async () => {
    const res = await patientsExport({ siteId: String(siteA.id), order: "name", direction: "asc" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="patients-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.headers["cache-control"]).toBe("no-store");
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 3)).toEqual(bom);
    // Accents byte for byte as UTF-8.
    expect(bytes.includes(Buffer.from("Balázs Éva", "utf8"))).toBe(true);
    const text = bytes.toString("utf8");
    expect(text.slice(1).startsWith("Id,Barcode,Name,Birth date,Status\r\n")).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    const rows = plainRows(text);
    expect(rows[0]).toEqual(["Id", "Barcode", "Name", "Birth date", "Status"]);
    expect(rows).toHaveLength(patientCount + 1);
    // In the list's own order: the same ids as its pages one after another.
    const ids = await listedIds({ siteId: String(siteA.id), order: "name", direction: "asc" });
    expect(rows.slice(1).map((row) => Number(row[0]))).toEqual(ids);
    // Values as the list shows them: names in the users' language, the status in words.
    expect(rows[1][2]).toMatch(/^Adam|^Ádám/);
    expect(new Set(rows.slice(1).map((row) => row[4]))).toEqual(new Set(["Active"]));
  });

  it("honours every order the list offers, nulls included, both ways and across batches", async () => {
    for (const order of ["birthDate", "ssn", "name", "id", "barcode"])
      for (const direction of ["asc", "desc"]) {
        const query = { siteId: String(siteA.id), order, direction };
        const res = await patientsExport(query);
        const exported = plainRows(res.body)
          .slice(1)
          .map((row) => Number(row[0]));
        expect(exported, `${order} ${direction}`).toEqual(await listedIds(query));
      }
  });

  it("honours the search and the filters", async () => {
    const input = patientInput(siteA.id);
    const found = await createPatient(t.database.db, siteA.id, {
      patientDetail: { ...input.patientDetail, lastName: "Zsigmondy", firstName: "Zoé" },
    });
    const res = await patientsExport({ siteId: String(siteA.id), searchTerm: "zsigmondy" });
    const rows = plainRows(res.body);
    expect(rows.map((row) => row[0])).toEqual(["Id", String(found.id)]);
    expect(rows[1][2]).toBe("Zsigmondy Zoé");
  });

  it("keeps staff to their own sites' patients, as the list does", async () => {
    const all = plainRows((await patientsExport({})).body);
    expect(all.some((row) => row[2] === "Othersite Olga")).toBe(false);
    const other = await patientsExport({ siteId: String(siteB.id) });
    expect(other.statusCode).toBe(200);
    expect(plainRows(other.body)).toEqual([["Id", "Barcode", "Name", "Birth date", "Status"]]);
    const byAdmin = plainRows((await patientsExport({ siteId: String(siteB.id) }, admin)).body);
    expect(byAdmin.map((row) => row[2])).toEqual(["Name", "Othersite Olga"]);
  });

  it("refuses what the list refuses, unknown columns, and resources the user may not list", async () => {
    const unknownColumn = await patientsExport({
      columns: JSON.stringify([
        ["ssn", "SSN"],
        ["secret", "X"],
      ]),
    });
    expect(unknownColumn.statusCode).toBe(400);
    expect(unknownColumn.json().header.fieldErrors).toEqual([
      { field: "columns", message: "Unknown column: secret" },
    ]);
    // A nested part of the record is not a column.
    expect((await patientsExport({ format: "view", columns: '[["patientDetail","X"]]' })).statusCode).toBe(
      400,
    );
    expect((await patientsExport({ columns: "id,barcode" })).statusCode).toBe(400);
    expect((await exportOf("patients", { format: "list" }, staffA)).statusCode).toBe(400);
    const page = await patientsExport({ page: "2" });
    expect(page.statusCode).toBe(400);
    expect(page.json().header.fieldErrors).toEqual([{ field: "page", message: "Unknown parameter" }]);
    expect((await patientsExport({ order: "phone" })).statusCode).toBe(400);

    const users = {
      columns: JSON.stringify([
        ["email", "Email"],
        ["name", "Name"],
      ]),
    };
    const refused = await exportOf("users", users, staffA);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers["content-type"]).toMatch(/^application\/json/);
    const allowed = await exportOf("users", users, admin);
    expect(allowed.statusCode).toBe(200);
    expect(plainRows(allowed.body)[0]).toEqual(["Email", "Name"]);
    expect((await t.app.inject({ method: "GET", url: "/api/users/export" })).statusCode).toBe(401);
  });

  it("quotes commas, quotes and line breaks and guards formulas in real cells", async () => {
    await createTherapyCategory(t.database.db, { name: 'Smith, "Jr"\nsecond line', code: "QQ1" });
    await createTherapyCategory(t.database.db, { name: '=HYPERLINK("http://evil")', code: "QQ2" });
    const res = await exportOf(
      "therapy-categories",
      {
        searchTerm: "QQ",
        order: "code",
        columns: JSON.stringify([
          ["code", "Code"],
          ["name", "Name, in full"],
        ]),
      },
      staffA,
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      '\uFEFFCode,"Name, in full"\r\nQQ1,"Smith, ""Jr""\nsecond line"\r\nQQ2,"\'=HYPERLINK(""http://evil"")"\r\n',
    );
  });

  it("compresses the stream like any other answer", async () => {
    const query = { siteId: String(siteA.id), order: "name", direction: "asc" };
    const plain = await patientsExport(query);
    const gzip = await exportOf(
      "patients",
      { format: "list", columns: JSON.stringify(patientColumns), ...query },
      staffA,
      { "accept-encoding": "gzip" },
    );
    expect(gzip.statusCode).toBe(200);
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.rawPayload)).toEqual(plain.rawPayload);
    expect(gzip.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
  });
});

describe.each(databaseKinds)("worklist and studyplans exports on %s", (kind) => {
  let t: TestApp;
  let staffA: Session;
  let siteA: { id: number };
  let study: { id: number; workingName: string };
  const worklistColumns = JSON.stringify([
    ["patientName", "Patient"],
    ["visitName", "Visit"],
    ["windowEnd", "Window"],
    ["expectedDate", "Expected"],
    ["state", "State"],
  ]);
  const query = { asOf: "2026-03-20", to: "2026-06-30" };

  beforeAll(async () => {
    t = await startApp(kind);
    const db = t.database.db;
    siteA = await createSite(db);
    const siteB = await createSite(db);
    staffA = await t.signedInUser({ siteIds: [siteA.id] });
    const project = await setUpProject(t, "CSV-2026-001");
    study = await createStudy(db, project, { variant: "NORMAL" });
    const visits: number[] = [];
    for (const name of ["Screening", "Week 2", "Week 6"])
      visits.push((await createVisit(db, study.id, { name })).id);
    await createStudyplan(db, study.id, visits, [
      [14, 2, 2],
      [42, 3, 3],
    ]);
    // 3 visits × 15 assignments, starting on a few days: more rows than a batch, many windows alike.
    for (let i = 0; i < 15; i++) {
      const patient = await createPatient(db, siteA.id);
      await createStudyPatient(
        db,
        { patientId: patient.id, studyId: study.id },
        { startDate: `2026-03-0${1 + (i % 5)}` },
      );
    }
    const other = await createPatient(db, siteB.id);
    await createStudyPatient(db, { patientId: other.id, studyId: study.id }, { startDate: "2026-03-01" });
    // A second study without a plan: the studyplans list shows it as Missing.
    await createStudy(db, project, { variant: "SECONDARY" });
  }, 120_000);
  afterAll(async () => t?.close());

  const exportOf = (path: string, params: Record<string, string>) =>
    t.app.inject({
      method: "GET",
      url: `/api/${path}/export?${new URLSearchParams(params)}`,
      headers: { authorization: `Bearer ${staffA.accessToken}` },
    });

  it("exports the whole worklist of the site in its order, dates as ISO dates, the window in two columns", async () => {
    for (const direction of ["asc", "desc"]) {
      const res = await exportOf("worklist", {
        ...query,
        siteId: String(siteA.id),
        direction,
        columns: worklistColumns,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-disposition"]).toMatch(/filename="worklist-\d{4}-\d{2}-\d{2}\.csv"/);
      const rows = plainRows(res.body);
      // The screen's Window is two columns, each a date a spreadsheet sorts (issue 46, point 10).
      expect(rows[0]).toEqual(["Patient", "Visit", "Window start", "Window end", "Expected", "State"]);
      const listed: string[] = [];
      for (let page = 1; ; page++) {
        const list = await t.request<WorklistData>({
          method: "GET",
          url: `/api/worklist?${new URLSearchParams({ ...query, siteId: String(siteA.id), direction, page: String(page), pagesize: "100" })}`,
          session: staffA,
        });
        listed.push(
          ...list.body.data.items.map((row) => `${row.patientName} (${row.barcode})|${row.visitName}`),
        );
        if (list.body.data.items.length < 100) break;
      }
      expect(listed.length).toBeGreaterThan(exportBatchRows);
      expect(rows.slice(1).map((row) => `${row[0]}|${row[1]}`)).toEqual(listed);
    }
    const rows = plainRows(
      (await exportOf("worklist", { ...query, siteId: String(siteA.id), columns: worklistColumns })).body,
    );
    expect(rows[1]).toEqual([
      expect.stringMatching(/ \(.+-\d{6}\)$/),
      "Screening",
      "2026-03-01",
      "2026-03-01",
      "2026-03-01",
      "Overdue",
    ]);
    // Week 2 (day 14 ± 2) of an assignment started on 1 March.
    expect(rows.find((row) => row[1] === "Week 2")?.slice(1)).toEqual([
      "Week 2",
      "2026-03-13",
      "2026-03-17",
      "2026-03-15",
      "Overdue",
    ]);
  });

  it("keeps the worklist export to the user's sites and refuses unknown columns", async () => {
    const other = await exportOf("worklist", { ...query, siteId: "999999", columns: worklistColumns });
    expect(plainRows(other.body)).toEqual([
      ["Patient", "Visit", "Window start", "Window end", "Expected", "State"],
    ]);
    const unknown = await exportOf("worklist", { columns: '[["patientUuid","Uuid"]]' });
    expect(unknown.statusCode).toBe(400);
    expect((await exportOf("worklist", { columns: worklistColumns, page: "1" })).statusCode).toBe(400);
  });

  it("exports the studyplans list one row per study, with its counts and status in words", async () => {
    const res = await exportOf("studyplans", {
      searchTerm: "CSV-2026-001",
      columns: JSON.stringify([
        ["studyName", "Study"],
        ["visits", "Visits"],
        ["status", "Status"],
      ]),
    });
    expect(res.statusCode).toBe(200);
    expect(plainRows(res.body).map((row) => row.join("|"))).toEqual([
      "Study|Visits|Status",
      `${study.workingName}|Studyplan: 3 visits; Mandatory: 3 of 3 planned|Complete`,
      expect.stringMatching(/\|Studyplan: 0 visits; Mandatory: 0 of 0 planned\|Missing$/),
    ]);
  });
});
