import { newUuid } from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { createTherapyCategory, demoStudyUuid } from "../src/seed/factories";
import { databaseKinds, type Session, startApp, type TestApp } from "./helpers";

describe.each(databaseKinds)("the envelope on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  beforeAll(async () => {
    t = await startApp(kind, {
      // A route that fails the way a bug would, to see what a caller gets.
      routes: (app) =>
        app.get("/api/test-crash", { config: { access: "public" } }, async () => {
          throw new Error('relation "secret_table" does not exist: SELECT password FROM secret_table');
        }),
    });
    admin = await t.signedInUser({ isAdmin: true });
  });
  afterAll(() => t.close());

  it("wraps a success with header and data and carries the request id in body and header", async () => {
    const res = await t.request({ method: "GET", url: "/api/me", session: admin });
    expect(res.status).toBe(200);
    expect(res.body.header).toEqual({
      result: "success",
      errorMessage: null,
      errorCode: null,
      errorDetail: null,
      fieldErrors: [],
      requestId: expect.any(String),
    });
    expect(res.headers["x-request-id"]).toBe(res.body.header.requestId);
  });

  it("never takes a caller's x-request-id as its own, so audit rows cannot be given a forged one (issue 46)", async () => {
    const uuid = newUuid("therapy-categories");
    const res = await t.request<{ uuid: string }>({
      method: "POST",
      url: "/api/therapy-categories",
      session: admin,
      headers: { "x-request-id": "trace-42" },
      payload: { uuid, name: `Forged ${uuid.slice(-6)}`, code: uuid.slice(-3).toUpperCase() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.header.requestId).not.toBe("trace-42");
    expect(res.body.header.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers["x-request-id"]).toBe(res.body.header.requestId);
    const rows = await queryRows<{ request_id: string }>(
      t.database.db,
      sql`select request_id from audit_events where uuid = ${uuid}`,
    );
    expect(rows.map((r) => r.request_id)).toEqual([res.body.header.requestId]);
  });

  it("answers 400 VALIDATION_ERROR with field errors", async () => {
    const res = await t.request({
      method: "POST",
      url: "/api/therapy-categories",
      session: admin,
      payload: { name: "", code: "" },
    });
    expect(res.status).toBe(400);
    expect(res.body.header).toMatchObject({
      result: "error",
      errorCode: "VALIDATION_ERROR",
      errorMessage: "Invalid field data",
    });
    expect(res.body.header.fieldErrors).toContainEqual({ field: "name", message: "Name is required" });
    expect(res.body.data).toBeNull();
  });

  it("answers 401 UNAUTHENTICATED without a token", async () => {
    const res = await t.request({ method: "GET", url: "/api/therapy-categories" });
    expect(res.status).toBe(401);
    expect(res.body.header).toMatchObject({
      result: "error",
      errorCode: "UNAUTHENTICATED",
      requestId: expect.any(String),
    });
  });

  it("answers 404 NOT_FOUND for unknown routes and unknown records", async () => {
    for (const url of [
      "/api/no-such-thing",
      "/api/therapy-categories/thc-00000000-0000-4000-8000-000000000000",
    ]) {
      const res = await t.request({ method: "GET", url, session: admin });
      expect(res.status).toBe(404);
      expect(res.body.header).toMatchObject({
        result: "error",
        errorCode: "NOT_FOUND",
        requestId: expect.any(String),
      });
    }
    const anonymous = await t.request({ method: "POST", url: "/api/nothing-here" });
    expect(anonymous.status).toBe(404);
    expect(anonymous.body.header.errorCode).toBe("NOT_FOUND");
  });

  it("answers 409 CONFLICT for a stale version", async () => {
    const category = await createTherapyCategory(t.database.db);
    const res = await t.request({
      method: "PUT",
      url: `/api/therapy-categories/${category.uuid}`,
      session: admin,
      payload: { uuid: category.uuid, name: "Renamed", code: category.code, version: category.version + 5 },
    });
    expect(res.status).toBe(409);
    expect(res.body.header).toMatchObject({ result: "error", errorCode: "CONFLICT" });
  });

  /** A raw POST to therapy categories as the administrator: `body` as sent, with its content type. */
  const post = (payload: string | unknown[], contentType = "application/json") =>
    t.request({
      method: "POST",
      url: "/api/therapy-categories",
      session: admin,
      headers: { "content-type": contentType },
      payload: payload as string,
    });

  it("answers malformed JSON, an empty JSON body and a wrong content type with 400 in the envelope", async () => {
    const malformed = await post('{"name": "Onc');
    expect(malformed.status).toBe(400);
    expect(malformed.body.header).toMatchObject({
      errorCode: "VALIDATION_ERROR",
      errorMessage: "Malformed JSON body",
    });

    const empty = await post("");
    expect(empty.status).toBe(400);
    expect(empty.body.header.errorCode).toBe("VALIDATION_ERROR");

    const text = await post("name=Oncology", "text/plain");
    expect(text.status).toBe(400);
    expect(text.body.header.errorCode).toBe("VALIDATION_ERROR");

    const array = await post([1, 2]);
    expect(array.status).toBe(400);
  });

  it("refuses a prototype-polluting body", async () => {
    const res = await post('{"name":"Oncology","code":"ONX","__proto__":{"isAdmin":true}}');
    expect(res.status).toBe(400);
  });

  it("answers an unexpected error with a generic 500: no stack, no SQL", async () => {
    const res = await t.request({ method: "GET", url: "/api/test-crash" });
    expect(res.status).toBe(500);
    expect(res.body.header).toMatchObject({
      result: "error",
      errorCode: "INTERNAL_ERROR",
      errorMessage: "Internal server error",
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/secret_table|SELECT|at .*\.ts/);
    expect(res.body.header.errorDetail).toContain(res.body.header.requestId);
  });

  it("serves /config.json with the configured values", async () => {
    const res = await t.app.inject({ method: "GET", url: "/config.json" });
    expect(res.json()).toEqual({
      apiBaseUrl: "/api",
      defaultPageSize: 20,
      inactivityTimeoutSeconds: 900,
      minimumPatientAge: 18,
      maximumPatientAge: 100,
      summaryStudyUuid: demoStudyUuid,
    });
  });

  it("answers a DELETE sent with a JSON content type and no body", async () => {
    const category = await createTherapyCategory(t.database.db);
    const res = await t.request({
      method: "DELETE",
      url: `/api/therapy-categories/${category.uuid}`,
      session: admin,
      headers: { "content-type": "application/json", "content-length": "0" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted: true });
  });
});
