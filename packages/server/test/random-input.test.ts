import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTherapyArea, createTherapyCategory } from "../src/seed/factories";
import { databaseKinds, type Session, startApp, type TestApp } from "./helpers";

/** Bad input never breaks anything (DESIGN §7): random JSON at create and update never gives a 500. */
describe.each(databaseKinds)("random JSON on %s", (kind) => {
  let t: TestApp;
  let user: Session;
  let category: { id: number; uuid: string };
  let area: { id: number; uuid: string };
  beforeAll(async () => {
    t = await startApp(kind);
    user = await t.signedInUser({ isAdmin: true });
    category = await createTherapyCategory(t.database.db);
    area = await createTherapyArea(t.database.db, category.id);
  });
  afterAll(() => t.close());

  // Plausible field names with random values reach the validator and the database, not just zod.
  const value = fc.oneof(
    fc.jsonValue(),
    fc.string({ maxLength: 60 }),
    fc.string({ unit: "binary", maxLength: 20 }),
    fc.integer(),
    fc.double(),
    fc.constantFrom(null, true, "", "ONC", 2 ** 31, -1, "thc-", "\u0000"),
  );
  const body = fc.oneof(
    fc.jsonValue(),
    fc.record(
      {
        uuid: fc.oneof(
          value,
          fc.uuid().map((u) => `thc-${u}`),
          fc.uuid().map((u) => `tha-${u}`),
        ),
        id: value,
        version: fc.oneof(value, fc.constant(1)),
        name: value,
        code: value,
        therapyCategoryId: fc.oneof(value, fc.constant(1)),
        therapyCategoryName: value,
      },
      { requiredKeys: [] },
    ),
    fc.dictionary(fc.string({ maxLength: 10 }), value),
  );

  const targets = () => [
    { method: "POST" as const, url: "/api/therapy-categories" },
    { method: "PUT" as const, url: `/api/therapy-categories/${category.uuid}` },
    { method: "POST" as const, url: "/api/therapy-areas" },
    { method: "PUT" as const, url: `/api/therapy-areas/${area.uuid}` },
  ];

  it("never answers 500 to create or update of therapy categories and areas", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 1, 2, 3), body, async (which, payload) => {
        const target = targets()[which];
        const res = await t.request({
          ...target,
          session: user,
          headers: { "content-type": "application/json" },
          payload: JSON.stringify(payload),
        });
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        expect(res.body.header.result).toBe(res.status < 300 ? "success" : "error");
      }),
      { numRuns: 150 },
    );
  });
});
