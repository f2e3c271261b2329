import { type ResourceName, resourceAccess, uuidPrefixes } from "@trialdesk/domain";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { resources } from "../src/app";
import { seed } from "../src/seed/seed";
import {
  databaseKinds,
  type Json,
  type Session,
  startApp,
  type TestApp,
  toInput,
  withReason,
} from "./helpers";

/**
 * Bad input never breaks anything (design §7): for EVERY resource registered in app.ts, random
 * mutations of a valid body (a demo-seed record read back, cut to the resource's wire schema) and
 * random JSON at create and update, and random list queries, never give a 500; so does random input
 * on every other route of the OpenAPI document. A resource or route added to app.ts is covered here
 * without a new test, as long as the demo seed writes one of its records.
 */

type Body = { [key: string]: Json };

/** Every key path of a body, nested objects and array items included (["details", "croId"], …). */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (!value || typeof value !== "object") return [];
  const entries: [string | number, Json][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return entries.flatMap(([key, v]) => [[...prefix, key], ...pathsOf(v, [...prefix, key])]);
}

type Mutation = { path: (string | number)[]; action: "set" | "delete"; value: Json };

function mutate(base: Body, mutations: Mutation[]): Body {
  const body = structuredClone(base);
  for (const { path, action, value } of mutations) {
    let parent: Json = body;
    for (const key of path.slice(0, -1)) {
      parent = parent && typeof parent === "object" ? (parent as Record<string, Json>)[key] : null;
    }
    if (!parent || typeof parent !== "object") continue;
    const last = path[path.length - 1] as string;
    if (action === "delete" && !Array.isArray(parent)) delete (parent as Record<string, Json>)[last];
    else (parent as Record<string, Json>)[last] = value;
  }
  return body;
}

// Values that reach the validator and the database, not just zod: wrong types, limits, SQL, HTML.
const value: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue() as fc.Arbitrary<Json>,
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.string({ minLength: 300, maxLength: 5000 }),
  fc.integer(),
  fc.double().filter(Number.isFinite),
  fc.constantFrom<Json>(
    null,
    true,
    false,
    "",
    " ",
    0,
    -1,
    2 ** 31,
    2 ** 53,
    1e308,
    [],
    {},
    [1, 2],
    ["x"],
    "2025-02-30",
    "9999-99-99",
    "\u0000",
    "'; DROP TABLE users; --",
    "<script>alert(1)</script>",
    "thc-00000000-0000-4000-8000-000000000000",
  ),
);

describe.each(databaseKinds)("random input on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  /** The demo monitor: queries are theirs to write (the registry's "monitor" access, issue 44). */
  let monitor: Session;
  const writer = (name: string) =>
    resourceAccess(name as ResourceName).write === "monitor" ? monitor : admin;
  /** Per resource: a valid body of one seeded record (its version kept current), or why there is none. */
  const bases = new Map<string, Body | string>();
  const baseOf = (name: string): Body => {
    const base = bases.get(name);
    if (typeof base !== "object") throw new Error(base ?? `${name} was not read`);
    return base;
  };

  beforeAll(async () => {
    t = await startApp(kind);
    await seed(t.database.db, { demoAdmin: true });
    admin = await t.signedInUser({ isAdmin: true });
    monitor = await t.signIn("monitor@example.com", "monitor1234");
    for (const resource of resources) {
      const list = await t.request<{ items: { uuid: string }[] }>({
        method: "GET",
        // The view format is every resource's record shape (a list may default to another, e.g. per study).
        url: `/api/${resource.name}?pagesize=50&format=view`,
        session: admin,
      });
      const first = list.body.data?.items.find((item) => typeof item.uuid === "string");
      if (!first) {
        bases.set(resource.name, `The demo seed has no ${resource.name}: add one so random input covers it.`);
        continue;
      }
      const read = await t.request<Body>({
        method: "GET",
        url: `/api/${resource.name}/${first.uuid}`,
        session: admin,
      });
      bases.set(
        resource.name,
        read.status === 200
          ? (toInput(read.body.data, resource.schema as z.ZodType) as Body)
          : `GET /api/${resource.name}/${first.uuid} answered ${read.status}: ${JSON.stringify(read.body)}`,
      );
    }
  }, 60_000);
  afterAll(() => t.close());

  const send = async (method: "POST" | "PUT", url: string, payload: unknown) => {
    const res = await t.request<Body>({
      method,
      url,
      session: writer(url.split("/")[2] as string),
      // Edits of recorded clinical data say why (issue 46, point 1).
      headers: { "content-type": "application/json", ...withReason() },
      payload: JSON.stringify(payload),
    });
    expect(
      res.status,
      `${method} ${url} ${JSON.stringify(payload)} → ${JSON.stringify(res.body)}`,
    ).toBeLessThan(500);
    expect(res.body.header.result).toBe(res.status < 300 ? "success" : "error");
    return res;
  };

  /** The resources someone writes (earnings are Trialdesk's own). */
  const written = resources.map((r) => r.name).filter((name) => resourceAccess(name).write !== "none");
  it.each(written)("%s: a seeded record sent back unchanged is saved", async (name) => {
    const base = baseOf(name);
    const res = await send("PUT", `/api/${name}/${base.uuid}`, base);
    expect(res.status, JSON.stringify(res.body.header)).toBe(200);
    base.version = res.body.data.version;
  });

  it.each(written)(
    "%s: mutated bodies and random JSON at create and update never give a 500",
    async (name) => {
      const base = baseOf(name);
      const prefix = uuidPrefixes[name as keyof typeof uuidPrefixes];
      const mutation = fc.record({
        path: fc.constantFrom(...pathsOf(base), ["unknownField"], ["uuid"]),
        action: fc.constantFrom<Mutation["action"]>("set", "set", "delete"),
        value,
      });
      const body = fc.oneof(
        {
          weight: 6,
          arbitrary: fc.array(mutation, { minLength: 1, maxLength: 4 }).map((m) => mutate(base, m)),
        },
        { weight: 1, arbitrary: fc.jsonValue() },
        { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), value) },
      );
      const uuid = fc.oneof(
        fc.constant(undefined),
        fc.uuid({ version: 4 }).map((u) => `${prefix}${u}`),
        fc.constant(base.uuid),
      );
      await fc.assert(
        fc.asyncProperty(fc.boolean(), body, uuid, async (create, payload, newUuid) => {
          if (create) {
            const created =
              payload && typeof payload === "object" && !Array.isArray(payload)
                ? { ...payload, uuid: newUuid, id: undefined, version: undefined }
                : payload;
            await send("POST", `/api/${name}`, created);
          } else {
            const res = await send("PUT", `/api/${name}/${base.uuid}`, payload);
            // Keep the version current, so later valid-ish updates get past the stale-version check.
            if (res.status === 200) base.version = res.body.data.version;
          }
        }),
        { numRuns: 60 },
      );
    },
    30_000,
  );

  it.each(resources)("$name: random list and record queries never give a 500", async (resource) => {
    const known = ["page", "pagesize", "searchTerm", "order", "direction", "format"];
    const keys = fc.constantFrom(...known, ...Object.keys(resource.filters ?? {}), "unknown");
    const values = fc.oneof(
      fc.constantFrom(...Object.keys(resource.sort), "asc", "desc", "view", "option", "1", "0", "-1", "true"),
      fc.string({ maxLength: 40 }),
      fc.string({ minLength: 100, maxLength: 300 }),
      fc.integer().map(String),
    );
    await fc.assert(
      fc.asyncProperty(fc.dictionary(keys, values, { maxKeys: 4 }), fc.string(), async (query, id) => {
        const list = await t.request({
          method: "GET",
          url: `/api/${resource.name}?${new URLSearchParams(query)}`,
          session: admin,
        });
        expect(list.status, `${JSON.stringify(query)} → ${JSON.stringify(list.body)}`).toBeLessThan(500);
        const record = await t.request({
          method: "GET",
          url: `/api/${resource.name}/${encodeURIComponent(id)}`,
          session: admin,
        });
        expect(record.status, `${id} → ${JSON.stringify(record.body)}`).toBeLessThan(500);
      }),
      { numRuns: 25 },
    );
  });

  it("every other API route in the OpenAPI document answers random input without a 500", async () => {
    type Operation = {
      parameters?: { in: string; name: string }[];
      requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
    };
    const doc = (
      t.app as unknown as { swagger: () => { paths: Record<string, Record<string, Operation>> } }
    ).swagger();
    // The machinery's own routes are fuzzed above, record by record.
    const machinery = new Set(
      resources.flatMap((r) => [`/api/${r.name}`, `/api/${r.name}/{id}`, `/api/${r.name}/{uuid}`]),
    );
    const routes = Object.entries(doc.paths)
      .filter(([path]) => !machinery.has(path))
      .flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => ({ path, method, operation })),
      );
    expect(routes.length).toBeGreaterThan(0);
    const seededUuids = [...bases.values()].flatMap((b) => (typeof b === "object" ? [String(b.uuid)] : []));
    for (const { path, method, operation } of routes) {
      const queryKeys = (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
      const bodyKeys = Object.keys(
        operation.requestBody?.content?.["application/json"]?.schema?.properties ?? {},
      );
      const param = fc.oneof(fc.constantFrom(...seededUuids, "1", "0", "-1"), fc.string({ maxLength: 40 }));
      const query = fc.dictionary(
        fc.constantFrom(...queryKeys, "unknown"),
        fc.oneof(fc.constantFrom(...seededUuids, "1", "true"), fc.string({ maxLength: 60 })),
        { maxKeys: 4 },
      );
      const body = fc.oneof(
        fc.jsonValue(),
        bodyKeys.length > 0
          ? fc.record(Object.fromEntries(bodyKeys.map((k) => [k, value])), { requiredKeys: [] })
          : fc.dictionary(fc.string({ maxLength: 10 }), value),
      );
      await fc.assert(
        fc.asyncProperty(param, query, body, async (id, q, payload) => {
          const url = `${path.replace(/\{[^}]+\}/g, encodeURIComponent(id))}?${new URLSearchParams(q)}`;
          const call = (session: Session) =>
            t.request({
              method: method.toUpperCase() as "GET",
              url,
              session,
              ...(method === "get" || method === "delete"
                ? {}
                : { headers: { "content-type": "application/json" }, payload: JSON.stringify(payload) }),
            });
          // A route an administrator may not call is a monitor's (issue 44): fuzzed as the monitor.
          const first = await call(admin);
          const res = first.status === 403 ? await call(monitor) : first;
          expect(res.status, `${method} ${url} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
        }),
        { numRuns: 20 },
      );
    }
  }, 60_000);
});
