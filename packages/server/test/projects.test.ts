import { newUuid, type ProjectOption, type ProjectView } from "@trialdesk/domain";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { studies } from "../src/resources/studies/studies.table";
import {
  createPartner,
  createProject,
  createSite,
  createTherapyArea,
  createTherapyCategory,
  type ProjectRefs,
  projectInput,
  uniqueCode,
} from "../src/seed/factories";
import { databaseKinds, resourceClient, type Session, startApp, type TestApp } from "./helpers";

describe.each(databaseKinds)("projects on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let refs: ProjectRefs;
  let codes: { cro: string; sponsor: string; area: string };
  let other: { croId: number; sponsorId: number; both: number; areaId: number; siteId: number };
  beforeAll(async () => {
    t = await startApp(kind);
    // Study setup, the finance terms included, is written by administrators and read by staff (issue
    // 46, point 3; the conformance test checks that staff are refused every write).
    admin = await t.signedInUser({ isAdmin: true });
    staff = await t.signedInUser({ isAdmin: false });
    const db = t.database.db;
    const category = await createTherapyCategory(db);
    const area = await createTherapyArea(db, category.id);
    const cro = await createPartner(db, { cro: true });
    const sponsor = await createPartner(db, { sponsor: true });
    const [siteA, siteB] = [await createSite(db), await createSite(db)];
    refs = { croId: cro.id, sponsorId: sponsor.id, therapyAreaId: area.id, siteIds: [siteA.id, siteB.id] };
    codes = { cro: cro.code, sponsor: sponsor.code, area: area.code };
    other = {
      croId: (await createPartner(db, { cro: true })).id,
      sponsorId: (await createPartner(db, { sponsor: true })).id,
      both: (await createPartner(db, { cro: true, sponsor: true })).id,
      areaId: (await createTherapyArea(db, category.id)).id,
      siteId: (await createSite(db)).id,
    };
  });
  afterAll(() => t.close());

  const url = "/api/projects";
  const { create, update, list } = resourceClient<ProjectView>(
    () => t,
    "projects",
    () => admin,
  );
  const errorsOf = (res: { body: { header: { fieldErrors: { field: string; message: string }[] } } }) =>
    Object.fromEntries(res.body.header.fieldErrors.map((e) => [e.field, e.message]));

  it("saves every tab and reads it back whole, with the sites and the referenced names", async () => {
    const input = projectInput(refs, { protocolNr: "RT-2025-417" });
    const res = await create(input);
    expect(res.status).toBe(201);
    const { internalCode: _, ...sent } = input;
    expect(res.body.data).toEqual({
      ...sent,
      id: expect.any(Number),
      version: 1,
      internalCode: `${codes.cro}${codes.sponsor}${codes.area}417`,
      siteIds: [...refs.siteIds].sort((a, b) => a - b),
      therapyAreaName: expect.any(String),
      croName: `Partner ${codes.cro}`,
      sponsorName: `Partner ${codes.sponsor}`,
    });
    const read = await t.request<ProjectView>({ method: "GET", url: `${url}/${input.uuid}`, session: staff });
    expect(read.body.data).toEqual(res.body.data);
    expect(read.body.data.finance.patientFee).toBe(1250.5);
  });

  it("changes every part on update and recomputes the internal code, ignoring the client's", async () => {
    const created = (await create(projectInput(refs, { protocolNr: "AB-100" }))).body.data;
    const changed = {
      ...created,
      protocolNr: "AB-200",
      internalCode: "WHATEVER",
      siteIds: [other.siteId],
      details: {
        ...created.details,
        croId: other.both,
        sponsorId: other.sponsorId,
        therapyAreaId: other.areaId,
        phase: 1,
        officialTitle: "T".repeat(500),
      },
      finance: { ...created.finance, currency: "CHF", vat: 0, paidPercentage: 100, patientFee: null },
      settings: { rescreen: false, cohortHandling: true, hospitalisation: false },
    };
    const res = await update(created.uuid, changed);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      version: 2,
      siteIds: [other.siteId],
      details: changed.details,
      finance: changed.finance,
      settings: changed.settings,
    });
    expect(res.body.data.internalCode).toMatch(/^[A-Z0-9]{9}200$/);
    expect(res.body.data.internalCode).not.toContain(codes.cro);
    expect(res.body.data.croName).not.toBe(created.croName);
  });

  it("gives every validation message of spec §5 on its field", async () => {
    const empty = {
      workingName: "",
      protocolNr: "",
      internalCode: "",
      projectStatusId: null,
      siteIds: [],
      details: { phase: null, therapyAreaId: null, croId: null, sponsorId: null },
      finance: { paidPercentage: 101 },
      settings: {},
    };
    const res = await create(empty);
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toEqual({
      workingName: "Working name is required",
      protocolNr: "Protocol number is required",
      internalCode: "Internal code is required",
      "details.sponsorId": "Sponsor is required",
      "details.croId": "CRO is required",
      "details.therapyAreaId": "Therapy area is required",
      "details.phase": "Phase is required",
      projectStatusId: "Status is required",
      siteIds: "At least one site is required",
      "finance.paidPercentage": "Paid percentage cannot exceed 100",
    });
  });

  it("refuses values outside the spec's lists and finance numbers over 3 digits", async () => {
    const input = projectInput(refs);
    const res = await create({
      ...input,
      projectStatusId: 35,
      details: { ...input.details, phase: 5 },
      finance: { ...input.finance, currency: "JPY", vat: 20, settlementDays: 1000 },
      unknown: 1,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(errorsOf(res)).sort()).toEqual(
      [
        "projectStatusId",
        "details.phase",
        "finance.currency",
        "finance.vat",
        "finance.settlementDays",
        "unknown",
      ].sort(),
    );
  });

  it("needs a CRO flagged cro and a sponsor flagged sponsor, and existing references", async () => {
    const notCro = await create(projectInput({ ...refs, croId: other.sponsorId }));
    expect(notCro.status).toBe(400);
    expect(errorsOf(notCro)).toEqual({ "details.croId": "The chosen partner is not a CRO" });
    const notSponsor = await create(projectInput({ ...refs, sponsorId: other.croId }));
    expect(errorsOf(notSponsor)).toEqual({ "details.sponsorId": "The chosen partner is not a sponsor" });
    const both = await create(projectInput({ ...refs, croId: other.both, sponsorId: other.both }));
    expect(both.status).toBe(201);
    const missing = await create(
      projectInput({ croId: 999_999, sponsorId: 999_998, therapyAreaId: 999_997, siteIds: [999_996] }),
    );
    expect(errorsOf(missing)).toEqual({
      "details.croId": "CRO does not exist",
      "details.sponsorId": "Sponsor does not exist",
      "details.therapyAreaId": "Therapy area does not exist",
      siteIds: "A chosen site does not exist",
    });
  });

  it("refuses a second project with the same internal code on the field", async () => {
    await create(projectInput(refs, { protocolNr: "DUP-777" }));
    const res = await create(projectInput(refs, { protocolNr: "OTHER-777" }));
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors[0].field).toBe("internalCode");
    expect(res.body.header.fieldErrors[0].message).toMatch(/^Internal code must be unique/);
  });

  it("refuses a protocol number another project has, trimmed and in any case, on the field (issue 46)", async () => {
    const used = { field: "protocolNr", message: "Protocol number is already used by another project" };
    const first = (await create(projectInput(refs, { protocolNr: "UNIQ-2026-100" }))).body.data;
    // Other partners and area: only the protocol number is the same.
    const elsewhere = {
      ...projectInput(refs, { protocolNr: " uniq-2026-100 " }),
      details: {
        ...projectInput(refs).details,
        croId: other.croId,
        sponsorId: other.sponsorId,
        therapyAreaId: other.areaId,
      },
    };
    const res = await create(elsewhere);
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual([used]);
    // With the same partners and area its internal code would clash too: the protocol number is named.
    const same = await create(projectInput(refs, { protocolNr: "UNIQ-2026-100" }));
    expect(same.body.header.fieldErrors).toEqual([used]);
    // Another project may not take it on update; the project itself saves with it, in another case.
    const second = (await create(projectInput(refs, { protocolNr: "UNIQ-2026-200" }))).body.data;
    const taken = await update(second.uuid, { ...second, protocolNr: "Uniq-2026-100" });
    expect(taken.status).toBe(400);
    expect(taken.body.header.fieldErrors).toEqual([used]);
    const resaved = await update(first.uuid, { ...first, protocolNr: "uniq-2026-100" });
    expect(resaved.status).toBe(200);
    // The database holds it: a row written past the resource is refused by the unique index.
    await expect(
      t.database.db.execute(sql`insert into projects (uuid, working_name, protocol_nr, internal_code,
          project_status_id, phase, therapy_area_id, cro_id, sponsor_id)
        select 'prj-' || gen_random_uuid(), 'Copy', 'UNIQ-2026-100 ', 'COPY-UNIQ', project_status_id, phase,
          therapy_area_id, cro_id, sponsor_id from projects where id = ${first.id}`),
    ).rejects.toThrow();
  });

  it("lets one of two simultaneous projects with the same protocol number in, the other refused on the field", async () => {
    const answers = await Promise.all([
      create(projectInput(refs, { protocolNr: "RACE-2026-300" })),
      create(projectInput(refs, { protocolNr: "race-2026-300" })),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 400]);
    expect(answers.find((res) => res.status === 400)?.body.header.fieldErrors).toEqual([
      { field: "protocolNr", message: "Protocol number is already used by another project" },
    ]);
    const found = await list("searchTerm=race-2026-300");
    expect(found.body.data.pagination.total).toBe(1);
  });

  it("lists id, workingName, protocolNr, internalCode and phase; searches and sorts by them", async () => {
    const name = `Searchable ${uniqueCode("Q")}`;
    const project = await createProject(t.database.db, refs, { workingName: name, protocolNr: "SRCH-55501" });
    const res = await list(`searchTerm=${encodeURIComponent(name.toLowerCase())}`);
    expect(res.status).toBe(200);
    expect(res.body.data.pagination.total).toBe(1);
    expect(res.body.data.items[0]).toMatchObject({
      id: project.id,
      workingName: name,
      protocolNr: "SRCH-55501",
      internalCode: project.internalCode,
      details: { phase: 3 },
    });
    expect((await list("searchTerm=srch-555")).body.data.items.map((p) => p.id)).toEqual([project.id]);
    expect((await list(`searchTerm=${project.internalCode}`)).body.data.items.map((p) => p.id)).toEqual([
      project.id,
    ]);
    for (const order of ["id", "workingName", "protocolNr", "internalCode", "phase"]) {
      expect((await list(`order=${order}&direction=desc`)).status).toBe(200);
    }
    const phases = (await list("order=phase&pagesize=250")).body.data.items.map((p) => p.details.phase);
    expect(phases).toEqual([...phases].sort());
    expect((await list("order=longName")).status).toBe(400);
  });

  it("answers the option view of spec §3 and §7 (page 1, size 250)", async () => {
    const project = await createProject(t.database.db, refs, { projectStatusId: 110 });
    const res = await list<ProjectOption>("format=option-view&page=1&pagesize=250");
    expect(res.status).toBe(200);
    expect(res.body.data.pagination.pageSize).toBe(250);
    expect(res.body.data.items.find((p) => p.id === project.id)).toEqual({
      id: project.id,
      uuid: project.uuid,
      workingName: project.workingName,
      protocolNr: project.protocolNr,
      status: 110,
    });
  });

  it("refuses to delete a project while a study uses it (409) and deletes it with its sites after", async () => {
    const project = await createProject(t.database.db, refs);
    const [study] = await t.database.db
      .insert(studies)
      .values({
        uuid: newUuid("studies"),
        projectId: project.id,
        variant: "NORMAL",
        workingName: `${project.protocolNr}_NORMAL`,
        fpfv: "2025-01-01",
        lpfv: "2025-06-30",
        lplv: "2025-12-31",
        projectStatusId: 30,
      })
      .returning();
    const refused = await t.request({ method: "DELETE", url: `${url}/${project.uuid}`, session: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.header.errorMessage).toBe("Project is still used by studies");
    await t.database.db.delete(studies).where(eq(studies.id, study.id));
    const res = await t.request({ method: "DELETE", url: `${url}/${project.uuid}`, session: admin });
    expect(res.body.data).toEqual({ deleted: true });
    const gone = await t.request({ method: "GET", url: `${url}/${project.uuid}`, session: staff });
    expect(gone.status).toBe(404);
  });

  it("needs a signed-in user", async () => {
    expect((await t.request({ method: "GET", url })).status).toBe(401);
    expect((await t.request({ method: "POST", url, payload: projectInput(refs) })).status).toBe(401);
  });
});
