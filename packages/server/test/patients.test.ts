import type { AuditEvent, ListData, Patient, PatientListRow, PatientLookupRow } from "@trialdesk/domain";
import {
  newUuid,
  sameNamePatientMessage,
  ssnExistsElsewhereMessage,
  ssnExistsMessage,
} from "@trialdesk/domain";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmDuplicateDetail } from "../src/resources/patients/patients.resource";
import { addresses, patients } from "../src/resources/patients/patients.table";
import { sites } from "../src/resources/sites/sites.table";
import { studyPatients } from "../src/resources/study-patients/study-patients.table";
import { demoPatientCount } from "../src/seed/demo-patients";
import { createPatient, createSite, createStudy, patientInput } from "../src/seed/factories";
import {
  databaseKinds,
  resourceClient,
  type Session,
  seededApp,
  startApp,
  type TestApp,
  twoSites,
  withReason,
} from "./helpers";
import { setUpProject } from "./study-setup";

describe.each(databaseKinds)("patients on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  /** Staff of site A only. */
  let staffA: Session;
  let siteA: { id: number; barcodePrefix: string };
  let siteB: { id: number; barcodePrefix: string };
  beforeAll(async () => {
    t = await startApp(kind);
    ({ siteA, siteB, admin, staffA } = await twoSites(t));
  });
  afterAll(() => t.close());

  const url = "/api/patients";
  const { create, update, get, list } = resourceClient<Patient, PatientListRow>(
    () => t,
    "patients",
    () => staffA,
    { reason: "Transcription error" },
  );

  it("creates a patient with its detail, address and contacts, and reads it back whole", async () => {
    const input = patientInput(siteA.id, {
      contacts: [
        { id: null, contactType: "PHONE", value: "+36 30 111 2222", notes: "mobile" },
        { id: null, contactType: "EMAIL", value: "anna@example.com", notes: null },
      ],
    });
    const res = await create(input);
    expect(res.status).toBe(201);
    const saved = res.body.data;
    expect(saved).toMatchObject({
      uuid: input.uuid,
      version: 1,
      status: 1,
      statusDetails: null,
      recorderSiteId: siteA.id,
      patientDetail: { ...input.patientDetail },
      address: { ...input.address, id: saved.addressId },
      contacts: [
        { id: expect.any(Number), contactType: "PHONE", value: "+36 30 111 2222", notes: "mobile" },
        { id: expect.any(Number), contactType: "EMAIL", value: "anna@example.com", notes: null },
      ],
    });
    expect(saved.barcode).toMatch(new RegExp(`^${siteA.barcodePrefix}\\d{6}$`));
    expect((await get(saved.uuid)).body.data).toEqual(saved);
    expect((await get(String(saved.id))).body.data).toEqual(saved);
  });

  it("gives the spec's validation messages on their dotted paths", async () => {
    const input = patientInput(siteA.id);
    const res = await create({
      ...input,
      patientDetail: { ...input.patientDetail, firstName: "", lastName: " " },
    });
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual([
      { field: "patientDetail.firstName", message: "First name is required" },
      { field: "patientDetail.lastName", message: "Last name is required" },
    ]);
    const phone = await create({
      ...input,
      contacts: [{ id: null, contactType: "PHONE", value: "call me", notes: null }],
    });
    expect(phone.body.header.fieldErrors).toEqual([
      { field: "contacts.0.value", message: "Only digits, plus and spaces" },
    ]);
    const untyped = await create({
      ...input,
      contacts: [{ id: null, contactType: null, value: "+36 1", notes: null }],
    });
    expect(untyped.body.header.fieldErrors).toEqual([
      { field: "contacts.0.contactType", message: "Contact type is required" },
    ]);
    const email = await create({
      ...input,
      contacts: [{ id: null, contactType: "EMAIL", value: "not an email", notes: null }],
    });
    expect(email.status).toBe(400);
    expect(email.body.header.fieldErrors).toEqual([
      { field: "contacts.0.value", message: "Email is not valid" },
    ]);
    const noSite = await create({ ...input, recorderSiteId: null });
    expect(noSite.body.header.fieldErrors).toEqual([
      { field: "recorderSiteId", message: "Please select a site first" },
    ]);
  });

  it("refuses a birth date outside the configured age bounds, even a typed future one", async () => {
    const input = patientInput(siteA.id);
    const born = (birthDate: string) =>
      create({ ...input, patientDetail: { ...input.patientDetail, birthDate } });
    const future = await born("2030-12-31");
    expect(future.status).toBe(400);
    expect(future.body.header.fieldErrors).toEqual([
      {
        field: "patientDetail.birthDate",
        message: expect.stringMatching(/^Birth date must be between .* \(age 18 to 100\)$/),
      },
    ]);
    const thisYear = new Date().getFullYear();
    expect((await born(`${thisYear - 10}-01-01`)).status).toBe(400);
    expect((await born(`${thisYear - 102}-01-01`)).status).toBe(400);
    expect((await born(`${thisYear - 40}-06-15`)).status).toBe(201);
  });

  it("generates the barcode from the site's prefix and its own running number, ignoring the client's", async () => {
    const site = await createSite(t.database.db);
    const other = await createSite(t.database.db);
    const first = await create(patientInput(site.id, { barcode: "HACK-1" }), admin);
    const second = await create(patientInput(site.id), admin);
    const elsewhere = await create(patientInput(other.id), admin);
    expect(first.body.data.barcode).toBe(`${site.barcodePrefix}000001`);
    expect(second.body.data.barcode).toBe(`${site.barcodePrefix}000002`);
    expect(elsewhere.body.data.barcode).toBe(`${other.barcodePrefix}000001`);
    const changed = await update(first.body.data.uuid, { ...first.body.data, barcode: "HACK-2" }, admin);
    expect(changed.body.data.barcode).toBe(`${site.barcodePrefix}000001`);
    // The seed writes through the same counter.
    expect((await createPatient(t.database.db, site.id)).barcode).toBe(`${site.barcodePrefix}000003`);
    // Past 999,999 the number grows a digit, never cut to six.
    await t.database.db.update(sites).set({ lastBarcodeNumber: 999_999 }).where(eq(sites.id, site.id));
    expect((await create(patientInput(site.id), admin)).body.data.barcode).toBe(
      `${site.barcodePrefix}1000000`,
    );
    expect((await create(patientInput(site.id), admin)).body.data.barcode).toBe(
      `${site.barcodePrefix}1000001`,
    );
  });

  it("refuses a site that does not exist, for the administrator too, and leaves no address row behind", async () => {
    const countAddresses = async () =>
      (await t.database.db.select({ id: addresses.id }).from(addresses)).length;
    const before = await countAddresses();
    const res = await create(patientInput(999_999), admin);
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual([
      { field: "recorderSiteId", message: "You are not assigned to this site" },
    ]);
    expect(await countAddresses()).toBe(before);
  });

  it("gives unique barcodes to 20 patients created at once on one site", async () => {
    const site = await createSite(t.database.db);
    const results = await Promise.all(Array.from({ length: 20 }, () => create(patientInput(site.id), admin)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const barcodes = results.map((r) => r.body.data.barcode).sort();
    expect(new Set(barcodes).size).toBe(20);
    expect(barcodes).toEqual(
      Array.from({ length: 20 }, (_, i) => `${site.barcodePrefix}${String(i + 1).padStart(6, "0")}`),
    );
  });

  it("updates detail, address and contacts in one save, keeps the address row, and audits nested changes", async () => {
    const created = (await create(patientInput(siteA.id))).body.data;
    const res = await update(created.uuid, {
      ...created,
      status: 0,
      statusDetails: "Moved abroad",
      patientDetail: { ...created.patientDetail, lastName: "Szabó" },
      address: { ...created.address, city: "Debrecen" },
      contacts: [...created.contacts, { id: null, contactType: "EMAIL", value: "a@example.com", notes: "" }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      version: 2,
      status: 0,
      statusDetails: "Moved abroad",
      addressId: created.addressId,
      patientDetail: { lastName: "Szabó" },
      address: { id: created.addressId, city: "Debrecen" },
    });
    expect(res.body.data.contacts.map((c) => c.value)).toEqual(["+36 30 123 4567", "a@example.com"]);
    const audit = await t.request<{ items: AuditEvent[] }>({
      method: "GET",
      url: `/api/audit?resource=patients&uuid=${created.uuid}`,
      session: staffA,
    });
    const fields = audit.body.data.items[0].changes.map((c) => c.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        "status",
        "statusDetails",
        "patientDetail.lastName",
        "address.city",
        "contacts",
      ]),
    );
    // Active again: the inactivity reason goes; unchanged contacts are not rewritten.
    const active = await update(created.uuid, { ...res.body.data, status: 1 });
    expect(active.body.data.statusDetails).toBeNull();
    expect(active.body.data.contacts).toEqual(res.body.data.contacts);
  });

  it("lists the derived values: name last then first, first phone, and the most recent active study's code", async () => {
    const site = await createSite(t.database.db);
    const staff = await t.signedInUser({ siteIds: [site.id] });
    const patient = await create(
      patientInput(site.id, {
        patientDetail: { ...patientInput(null).patientDetail, firstName: "Béla", lastName: "Tóth" },
        contacts: [
          { id: null, contactType: "EMAIL", value: "bela@example.com", notes: null },
          { id: null, contactType: "PHONE", value: "+36 1 555 0101", notes: null },
          { id: null, contactType: "PHONE", value: "+36 1 555 0202", notes: null },
        ],
      }),
      staff,
    );
    const rowOf = async () =>
      (await list(`siteId=${site.id}&format=list`, staff)).body.data.items.find(
        (r) => r.uuid === patient.body.data.uuid,
      );
    expect(await rowOf()).toMatchObject({
      name: "Tóth Béla",
      phone: "+36 1 555 0101",
      projectInternalCode: null,
      birthDate: "1980-05-17",
      status: 1,
      barcode: patient.body.data.barcode,
    });
    const older = await setUpProject(t, "PT-OLD-001");
    const newer = await setUpProject(t, "PT-NEW-002");
    const [oldStudy, newStudy] = [
      await createStudy(t.database.db, older),
      await createStudy(t.database.db, newer),
    ];
    const assign = (studyId: number, startDate: string, active: boolean) =>
      t.database.db.insert(studyPatients).values({
        uuid: newUuid("study-patients"),
        studyId,
        patientId: patient.body.data.id,
        startDate,
        active,
        closeReason: active ? null : "EOS",
      });
    await assign(oldStudy.id, "2025-01-10", true);
    expect((await rowOf())?.projectInternalCode).toBe(older.internalCode);
    await assign(newStudy.id, "2025-06-01", true);
    expect((await rowOf())?.projectInternalCode).toBe(newer.internalCode);
    // And that study's working name, which tells two studies of one project apart (issue 15).
    expect((await rowOf())?.studyWorkingName).toBe(newStudy.workingName);
  });

  it("filters by site, searches name, barcode, SSN and phone, and sorts by name", async () => {
    const site = await createSite(t.database.db);
    const staff = await t.signedInUser({ siteIds: [site.id] });
    const make = (firstName: string, lastName: string, ssn: string, phone: string) =>
      create(
        patientInput(site.id, {
          patientDetail: { ...patientInput(null).patientDetail, firstName, lastName, ssn },
          contacts: [{ id: null, contactType: "PHONE", value: phone, notes: null }],
        }),
        staff,
      );
    const zoe = (await make("Zoé", "Wiśniewska", "987654321", "+48 22 600 7000")).body.data;
    const adam = (await make("Ádám", "Wiśniewski", "123123123", "+48 22 600 8000")).body.data;
    const search = async (term: string) =>
      (
        await list(`siteId=${site.id}&format=list&searchTerm=${encodeURIComponent(term)}`, staff)
      ).body.data.items.map((r) => r.firstName);
    expect(await search("wiśniewsk")).toEqual(["Zoé", "Ádám"]);
    expect(await search("Wiśniewski Ádám")).toEqual(["Ádám"]);
    // The search text is kept in lower case; a word typed in capitals finds it all the same.
    expect(await search("WIŚNIEWSKI ÁDÁM")).toEqual(["Ádám"]);
    // Accents are folded on both sides: typed without them (or with others), a name is found.
    expect(await search("wisniewski adam")).toEqual(["Ádám"]);
    expect(await search("ZOE")).toEqual(["Zoé"]);
    const gyozo = (await make("Győző", "Großmann-Čapek", "555000111", "+36 1 222 3333")).body.data;
    expect(await search("gyozo grossmann")).toEqual(["Győző"]);
    expect(await search("capek GYŐZŐ")).toEqual(["Győző"]);
    expect(await search(zoe.barcode)).toEqual(["Zoé"]);
    expect(await search("654")).toEqual(["Zoé"]);
    expect(await search("600 8000")).toEqual(["Ádám"]);
    expect(await search("50%_")).toEqual([]);
    // Changing a phone or a name changes what finds the patient, at once (issue 14: the search text
    // is kept by the database on every write of a patient and its contacts).
    const changed = await update(
      adam.uuid,
      {
        ...adam,
        patientDetail: { ...adam.patientDetail, lastName: "Nowak" },
        contacts: [{ id: null, contactType: "PHONE", value: "+48 22 611 9000", notes: null }],
      },
      staff,
    );
    expect(changed.status).toBe(200);
    expect(await search("600 8000")).toEqual([]);
    expect(await search("611 9000")).toEqual(["Ádám"]);
    expect(await search("nowak ádám")).toEqual(["Ádám"]);
    expect(await search("Wiśniewski Ádám")).toEqual([]);
    const renamed = await update(
      adam.uuid,
      { ...changed.body.data, patientDetail: { ...changed.body.data.patientDetail, lastName: "Wiśniewski" } },
      staff,
    );
    expect(renamed.status).toBe(200);
    const byName = await list(`siteId=${site.id}&format=list&order=name&direction=asc`, staff);
    expect(byName.body.data.items.map((r) => r.uuid)).toEqual([gyozo.uuid, zoe.uuid, adam.uuid]);
    const desc = await list(`siteId=${site.id}&format=list&order=name&direction=desc`, staff);
    expect(desc.body.data.items.map((r) => r.uuid)).toEqual([adam.uuid, zoe.uuid, gyozo.uuid]);
    expect((await list(`siteId=${siteA.id}&format=list`, staff)).body.data.items).toEqual([]);
    expect((await list("order=phone", staff)).status).toBe(400);
    expect((await list("siteId=abc", staff)).status).toBe(400);
  });

  it("answers the lookup: forSelect rows sorted by name, 100 a page, search and onlyAssigned", async () => {
    const site = await createSite(t.database.db);
    const staff = await t.signedInUser({ siteIds: [site.id] });
    const named = (firstName: string, lastName: string) =>
      create(
        patientInput(site.id, {
          patientDetail: { ...patientInput(null).patientDetail, firstName, lastName },
        }),
        staff,
      );
    const b = (await named("Piotr", "Nowak")).body.data;
    const a = (await named("Eva", "Huber")).body.data;
    const project = await setUpProject(t, "PT-LOOK-003");
    const study = await createStudy(t.database.db, project);
    await t.database.db.insert(studyPatients).values({
      uuid: newUuid("study-patients"),
      studyId: study.id,
      patientId: b.id,
      startDate: "2025-02-01",
    });
    const lookup = await list<PatientLookupRow>(`forSelect=true&siteId=${site.id}`, staff);
    expect(lookup.status).toBe(200);
    expect(lookup.body.data.pagination.pageSize).toBe(100);
    expect(lookup.body.data.items).toEqual([
      {
        id: a.id,
        uuid: a.uuid,
        barcode: a.barcode,
        firstName: "Eva",
        lastName: "Huber",
        ssn: a.patientDetail.ssn,
        projectInternalCode: null,
        status: 1,
      },
      {
        id: b.id,
        uuid: b.uuid,
        barcode: b.barcode,
        firstName: "Piotr",
        lastName: "Nowak",
        ssn: b.patientDetail.ssn,
        projectInternalCode: project.internalCode,
        status: 1,
      },
    ]);
    const assigned = await list<PatientLookupRow>(
      `forSelect=true&siteId=${site.id}&onlyAssigned=true`,
      staff,
    );
    expect(assigned.body.data.items.map((r) => r.lastName)).toEqual(["Nowak"]);
    const searched = await list<PatientLookupRow>(`forSelect=true&siteId=${site.id}&search=hub`, staff);
    expect(searched.body.data.items.map((r) => r.lastName)).toEqual(["Huber"]);
    expect((await list(`forSelect=true&onlyAssigned=maybe`, staff)).status).toBe(400);
  });

  it("keeps site B's patients away from staff of site A: 404, absent from list, search and lookup", async () => {
    const ofB = (
      await create(
        patientInput(siteB.id, {
          patientDetail: { ...patientInput(null).patientDetail, lastName: "Elsewhere" },
        }),
        admin,
      )
    ).body.data;
    const missing = await get("pt-00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    const attempts = [
      get(ofB.uuid),
      get(String(ofB.id)),
      update(ofB.uuid, { ...ofB, patientDetail: { ...ofB.patientDetail, lastName: "Changed" } }),
      t.request({ method: "DELETE", url: `${url}/${ofB.uuid}`, session: staffA, headers: withReason() }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body.header.errorMessage).toBe(missing.body.header.errorMessage);
    }
    const seen = [
      ...(await list("format=list&pagesize=1000")).body.data.items,
      ...(await list(`format=list&siteId=${siteB.id}`)).body.data.items,
      ...(await list("format=list&searchTerm=Elsewhere")).body.data.items,
      ...(await list(`searchTerm=${ofB.barcode}`)).body.data.items,
      ...(await list(`forSelect=true&search=Elsewhere`)).body.data.items,
      ...(await list(`forSelect=true&siteId=${siteB.id}`)).body.data.items,
    ];
    expect(seen.map((r) => r.uuid)).not.toContain(ofB.uuid);
    // Nor can they create one for site B, nor for a site that does not exist: the same message.
    for (const siteId of [siteB.id, 999_999]) {
      const res = await create(patientInput(siteId));
      expect(res.status).toBe(400);
      expect(res.body.header.fieldErrors).toEqual([
        { field: "recorderSiteId", message: "You are not assigned to this site" },
      ]);
    }
    // The administrator sees and changes every site's patients.
    expect((await get(ofB.uuid, admin)).status).toBe(200);
    expect(
      (await list(`format=list&siteId=${siteB.id}`, admin)).body.data.items.map((r) => r.uuid),
    ).toContain(ofB.uuid);
    const unchanged = await get(ofB.uuid, admin);
    expect(unchanged.body.data.patientDetail.lastName).toBe("Elsewhere");
  });

  it("gives a user without sites no patients at all", async () => {
    const nobody = await t.signedInUser({ siteIds: [] });
    await create(patientInput(siteA.id));
    const res = await list("format=list", nobody);
    expect(res.status).toBe(200);
    expect(res.body.data.items).toEqual([]);
  });

  it("deletes a patient with its address and contacts; an assigned one is refused with 409", async () => {
    const created = (await create(patientInput(siteA.id))).body.data;
    const removed = await t.request({
      method: "DELETE",
      url: `${url}/${created.uuid}`,
      session: staffA,
      headers: withReason(),
    });
    expect(removed.body.data).toEqual({ deleted: true });
    expect((await get(created.uuid)).status).toBe(404);
    const assigned = (await create(patientInput(siteA.id))).body.data;
    const project = await setUpProject(t, "PT-DEL-004");
    const study = await createStudy(t.database.db, project);
    await t.database.db
      .insert(studyPatients)
      .values({ uuid: newUuid("study-patients"), studyId: study.id, patientId: assigned.id });
    const refused = await t.request({
      method: "DELETE",
      url: `${url}/${assigned.uuid}`,
      session: staffA,
      headers: withReason(),
    });
    expect(refused.status).toBe(409);
    expect((await get(assigned.uuid)).body.data.address.id).toBe(assigned.addressId);
  });

  describe("no duplicate patients (issue 46, point 4)", () => {
    /** A patient of `siteId` with this SSN, names and birth date (the rest as the form sends it). */
    const person = (
      siteId: number,
      ssn: string | null,
      firstName = "Anna",
      lastName = `Egyedi ${newUuid("patients").slice(3, 11)}`,
      birthDate = "1975-03-04",
    ) =>
      patientInput(siteId, {
        patientDetail: { ...patientInput(null).patientDetail, ssn, firstName, lastName, birthDate },
      });
    const ssnRefusal = (message: string) => [{ field: "patientDetail.ssn", message }];

    it("refuses an SSN another patient has, compared without case, spaces or punctuation, naming its barcode", async () => {
      const first = (await create(person(siteA.id, "SSN-111 222 333"))).body.data;
      const again = await create(person(siteA.id, " ssn111222333 "));
      expect(again.status).toBe(400);
      expect(again.body.header.fieldErrors).toEqual(
        ssnRefusal(`A patient with this SSN exists: ${first.barcode}`),
      );
      // Confirming a name question does not get past an SSN; nor does another name or site.
      const confirmed = await create({ ...person(siteA.id, "ssn.111.222.333"), confirmDuplicate: true });
      expect(confirmed.body.header.fieldErrors).toEqual(ssnRefusal(ssnExistsMessage(first.barcode)));
      const atB = await create(person(siteB.id, "SSN111222333"), admin);
      expect(atB.body.header.fieldErrors).toEqual(ssnRefusal(ssnExistsMessage(first.barcode)));
      // Another SSN, or none, is no duplicate; a blank SSN is none.
      expect((await create(person(siteA.id, "SSN-111 222 334"))).status).toBe(201);
      expect((await create(person(siteA.id, null))).status).toBe(201);
      expect((await create(person(siteA.id, null))).status).toBe(201);
      expect((await create(person(siteA.id, " - "))).status).toBe(201);
      expect((await create(person(siteA.id, " - "))).status).toBe(201);
    });

    it("names no patient of a site the user does not see: the SSN is refused all the same", async () => {
      const ofB = (await create(person(siteB.id, "HIDDEN-4455"), admin)).body.data;
      const res = await create(person(siteA.id, "hidden 4455"));
      expect(res.status).toBe(400);
      expect(res.body.header.fieldErrors).toEqual(ssnRefusal(ssnExistsElsewhereMessage));
      expect(ssnExistsElsewhereMessage).toBe("A patient with this SSN exists at another site");
      expect(JSON.stringify(res.body)).not.toContain(ofB.barcode);
      // Nor when editing one of their own patients to that SSN.
      const own = (await create(person(siteA.id, "OWN-4455"))).body.data;
      const edited = await update(own.uuid, {
        ...own,
        patientDetail: { ...own.patientDetail, ssn: "HIDDEN4455" },
      });
      expect(edited.body.header.fieldErrors).toEqual(ssnRefusal(ssnExistsElsewhereMessage));
      expect(JSON.stringify(edited.body)).not.toContain(ofB.barcode);
      // The administrator sees every site: the barcode is named.
      const byAdmin = await create(person(siteA.id, "HIDDEN-4455"), admin);
      expect(byAdmin.body.header.fieldErrors).toEqual(ssnRefusal(ssnExistsMessage(ofB.barcode)));
      // A patient the user sees is named before one they do not, whichever came first (two that share
      // an SSN from before this rule).
      const legacy = (await create(person(siteA.id, "LEGACY-4455"))).body.data;
      await t.database.db.update(patients).set({ ssn: "hidden4455" }).where(eq(patients.id, legacy.id));
      const seen = await create(person(siteA.id, "Hidden 4455"));
      expect(seen.body.header.fieldErrors).toEqual(ssnRefusal(ssnExistsMessage(legacy.barcode)));
    });

    it("asks first about a patient of the same name and birth date at the site, saving it when confirmed", async () => {
      const site = await createSite(t.database.db);
      const staff = await t.signedInUser({ siteIds: [site.id] });
      const first = (await create(person(site.id, null, "Éva", "Kovács-Nagy"), staff)).body.data;
      // Trimmed, in any case, without accents.
      const asked = await create(person(site.id, null, "  EVA ", "kovacs-nagy "), staff);
      expect(asked.status).toBe(409);
      expect(asked.body.header.errorMessage).toBe(sameNamePatientMessage(first.barcode));
      expect(asked.body.header.errorMessage).toBe(
        `A patient with this name and birth date exists at this site: ${first.barcode}`,
      );
      expect(asked.body.header.errorDetail).toBe(confirmDuplicateDetail);
      // Another birth date, or another site, is another person.
      expect((await create(person(site.id, null, "Éva", "Kovács-Nagy", "1975-03-05"), staff)).status).toBe(
        201,
      );
      expect((await create(person(siteB.id, null, "Éva", "Kovács-Nagy"), admin)).status).toBe(201);
      // No birth date: nothing to compare.
      const undated = person(site.id, null, "Éva", "Kovács-Nagy");
      undated.patientDetail.birthDate = null;
      expect((await create(undated, staff)).status).toBe(201);
      expect((await create({ ...undated, uuid: newUuid("patients") }, staff)).status).toBe(201);
      // Confirmed: saved, and the flag is kept nowhere (not in the record, not in its history).
      const input = { ...person(site.id, null, "Eva", "Kovacs-Nagy"), confirmDuplicate: true };
      const saved = await create(input, staff);
      expect(saved.status).toBe(201);
      expect(saved.body.data).not.toHaveProperty("confirmDuplicate");
      expect((await get(saved.body.data.uuid, staff)).body.data).not.toHaveProperty("confirmDuplicate");
      const history = await t.request<{ items: AuditEvent[] }>({
        method: "GET",
        url: `/api/audit?resource=patients&uuid=${input.uuid}`,
        session: staff,
      });
      expect(JSON.stringify(history.body.data)).not.toContain("confirmDuplicate");
      // The question and the refusal together: the SSN's refusal comes first.
      const withSsn = await create(
        { ...person(site.id, "BOTH-0001", "Éva", "Kovács-Nagy"), confirmDuplicate: true },
        staff,
      );
      expect(withSsn.status).toBe(201);
      const refused = await create(person(site.id, "both 0001", "Éva", "Kovács-Nagy"), staff);
      expect(refused.status).toBe(400);
      expect(refused.body.header.fieldErrors).toEqual(
        ssnRefusal(ssnExistsMessage(withSsn.body.data.barcode)),
      );
    });

    it("checks an edit against the other patients, never against itself, and only for what it changes", async () => {
      const site = await createSite(t.database.db);
      const staff = await t.signedInUser({ siteIds: [site.id] });
      const anna = (await create(person(site.id, "EDIT-0001", "Anna", "Szerkesztett"), staff)).body.data;
      const bea = (await create(person(site.id, "EDIT-0002", "Bea", "Szerkesztett"), staff)).body.data;
      // Saved as it is, and with its own SSN written otherwise: no question about itself.
      const same = await update(anna.uuid, anna, staff);
      expect(same.status).toBe(200);
      const respelled = await update(
        anna.uuid,
        {
          ...same.body.data,
          patientDetail: { ...same.body.data.patientDetail, ssn: "edit 0001", firstName: "ANNA" },
        },
        staff,
      );
      expect(respelled.status).toBe(200);
      // Another patient's SSN: refused, naming them.
      const taken = await update(
        bea.uuid,
        { ...bea, patientDetail: { ...bea.patientDetail, ssn: "Edit-0001" } },
        staff,
      );
      expect(taken.status).toBe(400);
      expect(taken.body.header.fieldErrors).toEqual(ssnRefusal(ssnExistsMessage(anna.barcode)));
      // Another patient's name and birth date: asked, then saved when confirmed.
      const renamed = { ...bea, patientDetail: { ...bea.patientDetail, firstName: "Anna" } };
      const asked = await update(bea.uuid, renamed, staff);
      expect(asked.status).toBe(409);
      expect(asked.body.header.errorMessage).toBe(sameNamePatientMessage(anna.barcode));
      const confirmed = await update(bea.uuid, { ...renamed, confirmDuplicate: true }, staff);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.data.patientDetail.firstName).toBe("Anna");
      // Kept as confirmed: the record's other changes are not asked again.
      const moved = await update(
        bea.uuid,
        { ...confirmed.body.data, address: { ...confirmed.body.data.address, city: "Pécs" } },
        staff,
      );
      expect(moved.status).toBe(200);
      // Two patients that shared an SSN before this rule keep their other changes.
      await t.database.db.update(patients).set({ ssn: "EDIT-0001" }).where(eq(patients.id, bea.id));
      const legacy = (await get(bea.uuid, staff)).body.data;
      const noted = await update(
        bea.uuid,
        { ...legacy, patientDetail: { ...legacy.patientDetail, notes: "Shares an SSN from before" } },
        staff,
      );
      expect(noted.status).toBe(200);
    });

    it("lets one of simultaneous creates with the same SSN, or the same name and birth date, win", async () => {
      const site = await createSite(t.database.db);
      const staff = await t.signedInUser({ siteIds: [site.id] });
      const bySsn = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          create(person(site.id, "RACE-0001", `Anna${i}`, `Verseny${i}`), staff),
        ),
      );
      expect(bySsn.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
      const winner = bySsn.find((r) => r.status === 201)?.body.data as Patient;
      for (const lost of bySsn.filter((r) => r.status === 400))
        expect(lost.body.header.fieldErrors).toEqual(ssnRefusal(ssnExistsMessage(winner.barcode)));
      const byName = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          create(person(site.id, `RACE-1${i}`, "Anna", "Egyszerre"), staff),
        ),
      );
      expect(byName.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const named = byName.find((r) => r.status === 201)?.body.data as Patient;
      for (const asked of byName.filter((r) => r.status === 409))
        expect(asked.body.header.errorMessage).toBe(sameNamePatientMessage(named.barcode));
      const saved = await t.database.db
        .select({ id: patients.id })
        .from(patients)
        .where(eq(patients.recorderSiteId, site.id));
      expect(saved).toHaveLength(2);
    });

    it("finds a site's patients of a name and birth date as a save compares them (the form's question)", async () => {
      const site = await createSite(t.database.db);
      const staff = await t.signedInUser({ siteIds: [site.id] });
      const zoe = (await create(person(site.id, null, "Zoé", "Łukasiewicz"), staff)).body.data;
      await create(person(site.id, null, "Zoé", "Łukasiewicz", "1975-03-05"), staff);
      await create(person(site.id, null, "Zoéla", "Łukasiewicz"), staff);
      const found = await list<PatientLookupRow>(
        `format=select&siteId=${site.id}&birthDate=1975-03-04&firstName=${encodeURIComponent(" zoe")}&lastName=LUKASIEWICZ`,
        staff,
      );
      expect(found.status).toBe(200);
      expect(found.body.data.items.map((r) => r.barcode)).toEqual([zoe.barcode]);
      expect((await list("birthDate=1975-02-30", staff)).status).toBe(400);
    });

    it("does not ask the system's own writes (the seed, the factories), but refuses their SSN duplicates", async () => {
      const site = await createSite(t.database.db);
      const detail = {
        ...patientInput(null).patientDetail,
        firstName: "Rendszer",
        lastName: "Írta",
        ssn: null,
      };
      await createPatient(t.database.db, site.id, { patientDetail: detail });
      await createPatient(t.database.db, site.id, { patientDetail: detail });
      await createPatient(t.database.db, site.id, { patientDetail: { ...detail, ssn: "SYSTEM-1" } });
      await expect(
        createPatient(t.database.db, site.id, { patientDetail: { ...detail, ssn: "system 1" } }),
      ).rejects.toThrow("Invalid field data");
    });
  });
});

describe.each(databaseKinds)("the demo patients on %s", (kind) => {
  const t = seededApp(kind);

  it("has 40+ valid patients over the three sites, most at the staff user's site, with barcodes from the counters", async () => {
    const admin = await t.signIn("admin@example.com", "admin1234");
    const staff = await t.signIn("staff@example.com", "staff1234");
    const all = await t.request<ListData<PatientListRow>>({
      method: "GET",
      url: "/api/patients?format=list&pagesize=1000&order=barcode",
      session: admin,
    });
    const rows = all.body.data.items;
    expect(rows).toHaveLength(demoPatientCount);
    expect(rows.length).toBeGreaterThanOrEqual(40);
    const bySite: Record<string, PatientListRow[]> = {};
    for (const row of rows) {
      const prefix = row.barcode.slice(0, 4);
      bySite[prefix] = [...(bySite[prefix] ?? []), row];
    }
    expect(Object.keys(bySite).sort()).toEqual(["BUD-", "VIE-", "WAW-"]);
    expect(bySite["BUD-"]?.length).toBeGreaterThan(rows.length / 2);
    expect(bySite["BUD-"]?.map((r) => r.barcode).slice(0, 2)).toEqual(["BUD-000001", "BUD-000002"]);
    expect(rows.filter((r) => r.status !== 1).every((r) => r.statusDetails)).toBe(true);
    expect(rows.some((r) => r.status !== 1)).toBe(true);
    expect(rows.every((r) => r.phone?.startsWith("+"))).toBe(true);
    // Every seeded record passes the resource's own validation when saved back unchanged.
    const one = await t.request<Patient>({
      method: "GET",
      url: `/api/patients/${rows[0].uuid}`,
      session: admin,
    });
    expect(one.body.data.address.city).toBeTruthy();
    const resaved = await t.request<Patient>({
      method: "PUT",
      url: `/api/patients/${rows[0].uuid}`,
      session: admin,
      payload: one.body.data,
      headers: withReason(),
    });
    expect(resaved.status).toBe(200);
    // The staff user sees only the first site's patients.
    const own = await t.request<ListData<PatientListRow>>({
      method: "GET",
      url: "/api/patients?format=list&pagesize=1000",
      session: staff,
    });
    expect(own.body.data.items.map((r) => r.barcode.slice(0, 4))).toEqual(
      Array(bySite["BUD-"]?.length).fill("BUD-"),
    );
  });
});
