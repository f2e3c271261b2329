import {
  type HistoryChange,
  type HistoryEvent,
  historyRepeats,
  newUuid,
  type ResourceName,
} from "@trialdesk/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  defaultPassword,
  monitorAssignmentInput,
  monitorInput,
  partnerInput,
  patientInput,
  patientVisitInput,
  projectInput,
  protocolDeviationInput,
  siteInput,
  studyInput,
  studyPatientInput,
  studyplanInput,
  therapyAreaInput,
  therapyCategoryInput,
  userInput,
  visitInput,
} from "../src/seed/factories";
import { databaseKinds, type Session, startApp, type TestApp } from "./helpers";

type Json = Record<string, unknown>;
type Edit = (record: Json) => Json;

/**
 * Issue 46, point 2: a record's history tells only what a person entered, in words. Each resource is
 * created and edited twice through the API as a person would, and its history is read back.
 */
describe.each(databaseKinds)("history in words, every resource, on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  const histories = new Map<string, HistoryEvent[]>();

  const call = async <T = Json>(
    method: "POST" | "PUT" | "GET",
    url: string,
    session: Session,
    payload?: object,
  ) => {
    const res = await t.request<T>({
      method,
      url: `/api/${url}`,
      session,
      payload,
      headers: method === "PUT" ? { "x-change-reason": "Source corrected" } : {},
    });
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body.data;
  };

  /** Creates the record, makes each edit to what the API then answers, and keeps its history. */
  async function walk(resource: ResourceName, input: Json, edits: Edit[], session = admin) {
    const created = await call<{ id: number; uuid: string }>("POST", resource, session, input);
    for (const edit of edits) {
      const record = await call<Json>("GET", `${resource}/${created.uuid}`, session);
      await call("PUT", `${resource}/${created.uuid}`, session, edit(structuredClone(record)));
    }
    const answer = await call<{ items: HistoryEvent[] }>(
      "GET",
      `audit?resource=${resource}&uuid=${created.uuid}`,
      session,
    );
    histories.set(resource, answer.items);
    return created;
  }

  beforeAll(async () => {
    t = await startApp(kind);
    admin = await t.signedInUser({ isAdmin: true, firstName: "Ada", lastName: "Admin" });
    const category = await walk("therapy-categories", therapyCategoryInput(), [
      (r) => ({ ...r, name: "Cardiology" }),
      (r) => ({ ...r, code: "CAR" }),
    ]);
    const area = await walk("therapy-areas", therapyAreaInput(category.id), [
      (r) => ({ ...r, name: "Heart failure" }),
      (r) => ({ ...r, code: "HF1" }),
    ]);
    const partner = await walk("partners", partnerInput({ cro: true }), [
      (r) => ({ ...r, name: "Nordic Trials" }),
      (r) => ({ ...r, sponsor: true }),
    ]);
    const site = await walk("sites", siteInput(), [
      (r) => ({ ...r, city: "Szeged" }),
      (r) => ({ ...r, shortName: "Szeged clinic" }),
    ]);
    const otherSite = await call<{ id: number }>("POST", "sites", admin, siteInput());
    await walk("users", userInput({ siteIds: [site.id] }), [
      (r) => ({ ...r, siteIds: [site.id, otherSite.id] }),
      (r) => ({ ...r, profile: { ...(r.profile as Json), lastName: "Renamed" }, isAdmin: true }),
    ]);
    const project = await walk(
      "projects",
      projectInput({ croId: partner.id, sponsorId: partner.id, therapyAreaId: area.id, siteIds: [site.id] }),
      [
        (r) => ({ ...r, siteIds: [site.id, otherSite.id], details: { ...(r.details as Json), phase: 2 } }),
        (r) => ({ ...r, finance: { ...(r.finance as Json), patientFee: 2000 } }),
      ],
    );
    const { protocolNr } = await call<{ protocolNr: string }>("GET", `projects/${project.uuid}`, admin);
    const study = await walk("studies", studyInput({ id: project.id, protocolNr }), [
      (r) => ({ ...r, lplv: "2027-06-30" }),
      (r) => ({ ...r, variantDescription: "Main study" }),
    ]);
    const screening = await walk("visits", visitInput(study.id, { name: "Screening", visitTypeId: 20 }), [
      (r) => ({ ...r, name: "Screening visit" }),
      (r) => ({ ...r, mandatory: 0 }),
    ]);
    const randomisation = await call<{ id: number }>(
      "POST",
      "visits",
      admin,
      visitInput(study.id, { name: "Randomisation", visitTypeId: 30 }),
    );
    const week4 = await call<{ id: number }>(
      "POST",
      "visits",
      admin,
      visitInput(study.id, { name: "Week 4" }),
    );
    await walk(
      "studyplans",
      studyplanInput(
        { id: study.id },
        [screening.id, randomisation.id, week4.id],
        [
          [14, 2, 2],
          [28, 3, 3],
        ],
      ),
      [
        (r) => ({
          ...r,
          schedule: (r.schedule as Json[]).map((row) =>
            row.toVisitId === week4.id ? { ...row, daysFromStart: 35 } : row,
          ),
        }),
        (r) => ({ ...r, calculationMode: "previous" }),
      ],
    );
    const patient = await walk("patients", patientInput(site.id), [
      (r) => ({
        ...r,
        address: { ...(r.address as Json), city: "Debrecen" },
        contacts: [
          ...(r.contacts as Json[]),
          { id: null, contactType: "EMAIL", value: "anna@example.com", notes: "work" },
        ],
      }),
      (r) => {
        const [phone, email] = r.contacts as Json[];
        return {
          ...r,
          patientDetail: { ...(r.patientDetail as Json), lastName: "Kovács-Nagy" },
          contacts: [{ ...phone, value: "+36 30 765 4321" }, email],
          status: 2,
          statusDetails: "Moved away",
        };
      },
    ]);
    await walk("study-patients", studyPatientInput({ patientId: patient.id, studyId: study.id }), [
      (r) => ({ ...r, randomNr: "R-17" }),
      (r) => ({ ...r, notes: "Consent version 2 signed" }),
    ]);
    const visit = await walk(
      "patient-visits",
      patientVisitInput(
        { patientId: patient.id, studyId: study.id, visitId: screening.id },
        { visitDate: "2025-04-01" },
      ),
      [(r) => ({ ...r, visitTime: "10:00" }), (r) => ({ ...r, notes: "Headache", visitResult: "FAILED" })],
    );
    await walk(
      "protocol-deviations",
      protocolDeviationInput({ patientId: patient.id, studyId: study.id, visitId: screening.id }),
      [(r) => ({ ...r, severity: "MAJOR" }), (r) => ({ ...r, status: "REPORTED", reportedOn: "2025-04-20" })],
    );
    const monitor = await walk("monitors", monitorInput(), [
      (r) => ({ ...r, lastName: "Moni" }),
      (r) => ({ ...r, firstName: "Mona Lisa" }),
    ]);
    await walk(
      "monitor-assignments",
      monitorAssignmentInput(
        { monitorId: monitor.id, studyId: study.id },
        { accessFrom: "2025-01-01", accessTo: "2099-12-31" },
      ),
      [(r) => ({ ...r, notes: "Remote visits" }), (r) => ({ ...r, siteIds: [site.id] })],
    );
    const { email } = await call<{ email: string }>("GET", `monitors/${monitor.uuid}`, admin);
    const asMonitor = await t.signIn(email, defaultPassword);
    await walk(
      "queries",
      { uuid: newUuid("queries"), patientVisitId: visit.id, text: "Please check the visit time" },
      [(r) => ({ ...r, status: "CLOSED" }), (r) => ({ ...r, status: "OPEN" })],
      asMonitor,
    );
  });
  afterAll(() => t.close());

  /** What the history screen lists of an event: its changes but the view fields that repeat another. */
  const listed = (resource: string, event: HistoryEvent) =>
    event.changes.filter((c) => !(historyRepeats[resource as ResourceName] ?? []).includes(c.field));
  /** A change's values as the screen gets them: its lines, the referenced records' names, or the values. */
  const shownValues = (change: HistoryChange): unknown[] =>
    change.lines ??
    ("oldText" in change || "newText" in change
      ? [change.oldText, change.newText]
      : [change.old, change.new]);
  /** Code lists whose detail rows show the code's name (a status, a visit type), not other records. */
  const codeLists = new Set(["projectStatusId", "visitTypeId"]);
  /** The server's own values, never something a person entered. */
  const internalValues = ["DEFAULT"];

  const resources = [
    "therapy-categories",
    "therapy-areas",
    "partners",
    "sites",
    "users",
    "projects",
    "studies",
    "visits",
    "studyplans",
    "patients",
    "study-patients",
    "patient-visits",
    "protocol-deviations",
    "monitors",
    "monitor-assignments",
    "queries",
  ] as const;

  it.each(resources)("%s: no id, machine column or blank field, other records by name", (resource) => {
    const events = histories.get(resource) ?? [];
    expect(events.map((e) => e.action)).toEqual(["update", "update", "create"]);
    for (const event of events) {
      const changes = listed(resource, event);
      expect(changes.length, JSON.stringify(event)).toBeGreaterThan(0);
      for (const change of changes) {
        const what = `${resource} ${change.field}: ${JSON.stringify(change)}`;
        const key = change.field.split(".").pop() as string;
        expect(key, what).not.toMatch(/^(id|uuid)$/i);
        // Machine columns: other uuids, times the server keeps, what only the day or the server knows.
        expect(key, what).not.toMatch(/(Uuid|At)$|^(has[A-Z]|current$|lastPasswordChangeDate$)/);
        if (/(Id|Ids)$/.test(key) && !codeLists.has(key)) {
          expect("newText" in change, what).toBe(true);
          for (const text of [change.oldText, change.newText])
            if (text !== null) expect(text, what).not.toMatch(/^\d+$/);
        }
        const values = shownValues(change);
        expect(
          values.every((v) => v === null || v === "" || (Array.isArray(v) && v.length === 0)),
          what,
        ).toBe(false);
        for (const value of values) {
          expect(internalValues, what).not.toContain(value);
          // A list of records (contacts, schedule rows) is told in lines, never as its rows and their ids.
          if (Array.isArray(value))
            expect(
              value.some((v) => v && typeof v === "object"),
              what,
            ).toBe(false);
        }
      }
    }
  });

  it("tells a patient's history without the address row's id and type, and the contacts in words", () => {
    const [second, first, create] = histories.get("patients") ?? [];
    const all = JSON.stringify([second, first, create].map((e) => e.changes.map((c) => c.field)));
    for (const machine of ["addressId", "address.id", "address.addressType"])
      expect(all).not.toContain(machine);
    const field = (event: HistoryEvent, name: string) => event.changes.find((c) => c.field === name);
    expect(field(create, "recorderSiteId")?.newText).toMatch(/ - Szeged clinic$/);
    expect(field(create, "contacts")?.lines).toEqual(["Phone +36 30 123 4567 added"]);
    // The first edit only added an e-mail: the phone, saved again under a new row id, is no change.
    expect(field(first, "contacts")?.lines).toEqual(["Email anna@example.com — work added"]);
    expect(field(second, "contacts")?.lines).toEqual([
      "Phone +36 30 765 4321 added",
      "Phone +36 30 123 4567 removed",
    ]);
    expect(field(first, "address.city")).toMatchObject({ old: "Budapest", new: "Debrecen" });
  });

  it("names a studyplan's days by the visit they place: Randomisation at day 14, not Screening", () => {
    const [, edit, create] = histories.get("studyplans") ?? [];
    const lines = (event: HistoryEvent) => event.changes.find((c) => c.field === "schedule")?.lines;
    expect(lines(create)).toEqual([
      "V1 Screening visit added: day 0",
      "V2 Randomisation added: day 14, window −2/+2",
      "V3 Week 4 added: day 28, window −3/+3",
    ]);
    expect(lines(edit)).toEqual(["V3 Week 4: day 28 → 35"]);
  });

  it("names the monitor, study and sites of an assignment and a deviation's patient, study, visit and site", () => {
    const create = (resource: string) => histories.get(resource)?.at(-1) as HistoryEvent;
    const texts = (resource: string) =>
      Object.fromEntries(create(resource).changes.map((c) => [c.field, c.newText ?? c.new]));
    expect(texts("monitor-assignments")).toMatchObject({
      monitorId: "Mona Lisa Moni",
      studyId: expect.any(String),
    });
    expect(texts("protocol-deviations")).toMatchObject({
      patientId: expect.stringMatching(/^Kovács-Nagy Anna \(/),
      visitId: "Screening visit",
      siteId: expect.stringMatching(/ - Szeged clinic$/),
    });
  });
});
