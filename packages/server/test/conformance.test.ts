import {
  type ResourceName,
  resourceAccess,
  resourceNames,
  resourceRegistry,
  uuidPrefixes,
} from "@trialdesk/domain";
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
 * What every registered resource does alike, checked for each one (a resource added to app.ts is
 * covered without a new test): staff are refused the writes the registry keeps for administrators,
 * a save from a stale version is refused with the resource's own words, and a uuid with another
 * resource's prefix is refused. Each starts from one demo-seeded record read back.
 */
type Body = Record<string, Json>;

describe.each(databaseKinds)("every resource on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  /** The demo monitor: queries are theirs to write (the registry's "monitor" access, issue 44). */
  let monitor: Session;
  const writer = (name: string) =>
    resourceAccess(name as ResourceName).write === "monitor" ? monitor : admin;
  /** Per resource, one seeded record as its detail reads it, cut to what its wire schema takes. */
  const records = new Map<string, Body>();

  beforeAll(async () => {
    t = await startApp(kind);
    await seed(t.database.db, { demoAdmin: true });
    admin = await t.signedInUser({ isAdmin: true });
    staff = await t.signedInUser({ isAdmin: false });
    monitor = await t.signIn("monitor@example.com", "monitor1234");
    for (const { name, schema } of resources) {
      const list = await t.request<{ items: Body[] }>({
        method: "GET",
        url: `/api/${name}?pagesize=1&format=view`,
        session: admin,
      });
      const first = list.body.data.items[0];
      if (!first) continue;
      const read = await t.request<Body>({
        method: "GET",
        url: `/api/${name}/${first.uuid}`,
        session: admin,
      });
      records.set(name, toInput(read.body.data, schema as z.ZodType) as Body);
    }
  }, 60_000);
  afterAll(() => t.close());

  const recordOf = (name: string) => {
    const record = records.get(name);
    if (!record) throw new Error(`The demo seed has no ${name}: add one so this test covers it.`);
    return record;
  };
  const names = resources.map((r) => r.name);
  /** The resources someone writes (earnings are Trialdesk's own: access "none", every write 403). */
  const written = names.filter((name) => resourceAccess(name).write !== "none");
  /** A change to the record's first free-text field, so a refused save would have changed something. */
  const changedField = (name: string): Body => {
    const record = recordOf(name);
    const key = ["name", "workingName", "notes", "lastName", "email"].find(
      (k) => typeof record[k] === "string",
    );
    return key ? { [key]: `${record[key]}x` } : {};
  };
  const takesPassword = (name: string) => {
    const schema = resources.find((r) => r.name === name)?.schema as z.ZodObject | undefined;
    return schema !== undefined && "password" in schema.shape;
  };

  it.each(names.filter((name) => resourceAccess(name).write === "none"))(
    "%s: nobody writes it by hand, not even an administrator",
    async (name) => {
      const { uuid } = recordOf(name);
      const attempts = [
        await t.request({ method: "POST", url: `/api/${name}`, session: admin, payload: {} }),
        await t.request({
          method: "PUT",
          url: `/api/${name}/${uuid}`,
          session: admin,
          payload: recordOf(name),
        }),
        await t.request({ method: "DELETE", url: `/api/${name}/${uuid}`, session: admin }),
      ];
      expect(attempts.map((res) => res.status)).toEqual([403, 403, 403]);
    },
  );

  it("registers exactly the registry's resources", () => {
    expect([...names].sort()).toEqual([...resourceNames].sort());
  });

  /** The number of audit events of a record: a refused write adds none. */
  const historyLength = async (name: string, uuid: Json) =>
    (
      await t.request<{ items: unknown[] }>({
        method: "GET",
        url: `/api/audit?resource=${name}&uuid=${uuid}`,
        session: admin,
      })
    ).body.data.items.length;

  it.each(names.filter((name) => resourceAccess(name).write === "admin"))(
    "%s: staff may read what the registry lets them but not create, change or delete",
    async (name) => {
      const { id: _, uuid, version: __, ...fields } = recordOf(name);
      const events = await historyLength(name, uuid);
      if (resourceAccess(name).list === "user")
        expect((await t.request({ method: "GET", url: `/api/${name}`, session: staff })).status).toBe(200);
      if (resourceAccess(name).get !== "admin")
        expect((await t.request({ method: "GET", url: `/api/${name}/${uuid}`, session: staff })).status).toBe(
          200,
        );
      const attempts = [
        await t.request({ method: "POST", url: `/api/${name}`, session: staff, payload: fields }),
        await t.request({
          method: "PUT",
          url: `/api/${name}/${uuid}`,
          session: staff,
          payload: { ...recordOf(name), ...changedField(name) },
        }),
        await t.request({ method: "DELETE", url: `/api/${name}/${uuid}`, session: staff }),
      ];
      expect(attempts.map((res) => [res.status, res.body.header.errorCode])).toEqual([
        [403, "FORBIDDEN"],
        [403, "FORBIDDEN"],
        [403, "FORBIDDEN"],
      ]);
      const after = await t.request<Body>({ method: "GET", url: `/api/${name}/${uuid}`, session: admin });
      expect(after.body.data.version).toBe(recordOf(name).version);
      expect(await historyLength(name, uuid)).toBe(events);
    },
  );

  it("keeps study setup, the projects' finance terms with it, for administrators to write (issue 46, point 3)", () => {
    // So the test above refuses staff every write of each: a BUD coordinator cannot re-time the
    // windows of another site's patients, nor change what a visit earns.
    const setup = ["projects", "studies", "visits", "studyplans"] as const;
    expect(setup.map((name) => [name, resourceAccess(name)])).toEqual(
      setup.map((name) => [name, { list: "user", get: "user", write: "admin" }]),
    );
    expect(names.filter((name) => resourceAccess(name).write === "admin")).toEqual(
      expect.arrayContaining([...setup]),
    );
  });

  it.each(
    names.filter((name) => resourceAccess(name).list === "admin" || resourceAccess(name).get === "admin"),
  )("%s: staff may not list or read what the registry keeps for administrators", async (name) => {
    const { uuid } = recordOf(name);
    const access = resourceAccess(name);
    const list = await t.request({ method: "GET", url: `/api/${name}`, session: staff });
    const read = await t.request({ method: "GET", url: `/api/${name}/${uuid}`, session: staff });
    expect([list.status, read.status]).toEqual([
      access.list === "admin" ? 403 : 200,
      access.get === "admin" ? 403 : 200,
    ]);
  });

  it.each(written)("%s: a save from a stale version is refused and changes nothing", async (name) => {
    const record = recordOf(name);
    const saved = await t.request<Body>({
      method: "PUT",
      url: `/api/${name}/${record.uuid}`,
      session: writer(name),
      payload: record,
      headers: withReason(),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const events = await historyLength(name, record.uuid);
    const stale = await t.request<Body>({
      method: "PUT",
      url: `/api/${name}/${record.uuid}`,
      session: writer(name),
      payload: { ...record, ...changedField(name) },
      headers: withReason(),
    });
    expect(stale.status).toBe(409);
    expect(stale.body.header.errorCode).toBe("CONFLICT");
    expect(stale.body.header.errorMessage).toBe(
      `This ${resourceRegistry[name].label.toLowerCase()} was changed by someone else since you opened it. Reload it to see the changes.`,
    );
    const now = await t.request<Body>({
      method: "GET",
      url: `/api/${name}/${record.uuid}`,
      session: writer(name),
    });
    expect(now.body.data).toEqual(saved.body.data);
    expect(await historyLength(name, record.uuid)).toBe(events);
    records.set(name, { ...record, version: saved.body.data.version });
  });

  it.each(written)("%s: a new record's uuid must carry the resource's own prefix", async (name) => {
    const other = resourceNames.find((n) => n !== name) as typeof name;
    const { id: _, version: __, ...fields } = recordOf(name);
    const res = await t.request({
      method: "POST",
      url: `/api/${name}`,
      session: writer(name),
      // A new user or monitor also needs a password.
      payload: {
        ...fields,
        ...(takesPassword(name) ? { password: "Tidy-Heron-417", password2: "Tidy-Heron-417" } : {}),
        uuid: `${uuidPrefixes[other]}${crypto.randomUUID()}`,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toContainEqual({
      field: "uuid",
      message: `Uuid must be a version-4 uuid with the prefix ${uuidPrefixes[name]}`,
    });
  });
});
