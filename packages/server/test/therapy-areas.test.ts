import type { AuditEvent, ListData, TherapyArea } from "@trialdesk/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTherapyArea, createTherapyCategory, therapyAreaInput } from "../src/seed/factories";
import { databaseKinds, expectCreated, type Session, startApp, type TestApp } from "./helpers";

describe.each(databaseKinds)("therapy areas on %s", (kind) => {
  let t: TestApp;
  let user: Session;
  let oncology: { id: number; name: string };
  let cardiology: { id: number; name: string };
  beforeAll(async () => {
    t = await startApp(kind);
    user = await t.signedInUser({ isAdmin: true });
    oncology = await createTherapyCategory(t.database.db, { name: "Oncology", code: "ONC" });
    cardiology = await createTherapyCategory(t.database.db, { name: "Cardiology", code: "CAR" });
  });
  afterAll(() => t.close());

  const url = "/api/therapy-areas";
  const create = (payload: object) => t.request<TherapyArea>({ method: "POST", url, session: user, payload });
  const list = (query: string) =>
    t.request<ListData<TherapyArea>>({ method: "GET", url: `${url}?${query}`, session: user });

  it("creates an area and answers it with its category name; the code is upper-cased", async () => {
    // A code longer than 3 is refused on the field, never stored cut (issue 46).
    const long = await create(therapyAreaInput(oncology.id, { name: "Breast cancer", code: "brca" }));
    expect(long.status).toBe(400);
    expect(long.body.header.fieldErrors).toEqual([
      { field: "code", message: "Must be at most 3 characters" },
    ]);
    const input = therapyAreaInput(oncology.id, { name: "Breast cancer", code: "brc" });
    const res = await create(input);
    expectCreated(res, input.uuid, {
      name: "Breast cancer",
      code: "BRC",
      therapyCategoryId: oncology.id,
      therapyCategoryName: "Oncology",
    });
  });

  it("gives every validation message of spec §5", async () => {
    const res = await create({ name: "", code: "", therapyCategoryId: null });
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: "name", message: "Name is required" },
        { field: "code", message: "Code is required" },
        { field: "therapyCategoryId", message: "Therapy Category is required" },
      ]),
    );
    const missing = await create({ name: "Lung cancer", code: "LUC" });
    expect(missing.body.header.fieldErrors).toEqual([
      { field: "therapyCategoryId", message: "Therapy Category is required" },
    ]);
  });

  it("refuses a category that does not exist with a field error", async () => {
    const res = await create({ name: "Orphan", code: "ORP", therapyCategoryId: 987654 });
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual([
      { field: "therapyCategoryId", message: "Therapy category does not exist" },
    ]);
    const huge = await create({ name: "Orphan", code: "ORP", therapyCategoryId: 2 ** 40 });
    expect(huge.status).toBe(400);
  });

  it("accepts a loaded record sent back whole (with its view field) and moves it to another category", async () => {
    const created = (await create(therapyAreaInput(oncology.id, { name: "Heart tumours", code: "HTU" }))).body
      .data;
    const res = await t.request<TherapyArea>({
      method: "PUT",
      url: `${url}/${created.uuid}`,
      session: user,
      payload: { ...created, therapyCategoryId: cardiology.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      version: 2,
      therapyCategoryId: cardiology.id,
      therapyCategoryName: "Cardiology",
    });
    const audit = await t.request<{ items: AuditEvent[] }>({
      method: "GET",
      url: `/api/audit?resource=therapy-areas&uuid=${created.uuid}`,
      session: user,
    });
    // The history names the categories; the view field that only repeats them is left out.
    expect(audit.body.data.items[0].changes).toEqual([
      {
        field: "therapyCategoryId",
        old: oncology.id,
        new: cardiology.id,
        oldText: "Oncology",
        newText: "Cardiology",
      },
    ]);
  });

  it("lists with the category name, filters by category, sorts by category name and searches", async () => {
    for (let i = 0; i < 3; i++)
      await createTherapyArea(t.database.db, cardiology.id, { name: `Cardio area ${i}` });
    const filtered = await list(`therapyCategoryId=${cardiology.id}&pagesize=250`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.items.length).toBeGreaterThanOrEqual(3);
    expect(filtered.body.data.items.every((a) => a.therapyCategoryName === "Cardiology")).toBe(true);
    const sorted = await list("order=therapyCategoryName&direction=asc&pagesize=250");
    const names = sorted.body.data.items.map((a) => a.therapyCategoryName);
    expect(names).toEqual([...names].sort());
    const searched = await list("searchTerm=cardio%20AREA");
    expect(searched.body.data.pagination.total).toBe(3);
    expect((await list("therapyCategoryId=abc")).status).toBe(400);
  });

  it("answers the lookup call of the spec (page 1, size 250)", async () => {
    const res = await list("page=1&pagesize=250");
    expect(res.status).toBe(200);
    expect(res.body.data.pagination.pageSize).toBe(250);
    expect(res.body.data.items[0]).toHaveProperty("therapyCategoryName");
  });

  it("reads one area without a token, but not the list", async () => {
    const area = await createTherapyArea(t.database.db, oncology.id, { name: "Public area" });
    const res = await t.request<TherapyArea>({ method: "GET", url: `${url}/${area.uuid}` });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: "Public area", therapyCategoryName: "Oncology" });
    expect((await t.request({ method: "GET", url: `${url}/${area.id}` })).body.data).toMatchObject({
      uuid: area.uuid,
    });
    expect((await t.request({ method: "GET", url })).status).toBe(401);
  });

  it("deletes an area", async () => {
    const area = await createTherapyArea(t.database.db, oncology.id);
    const res = await t.request({ method: "DELETE", url: `${url}/${area.uuid}`, session: user });
    expect(res.body.data).toEqual({ deleted: true });
  });
});
