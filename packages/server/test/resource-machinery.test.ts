import type { AuditEvent, FieldErrors } from "@trialdesk/domain";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { auditTrail } from "../src/audit/audit";
import type { SessionUser } from "../src/auth/guards";
import { type Db, queryRows } from "../src/db/client";
import { AppError } from "../src/http/errors";
import { defineResource, resourceService } from "../src/resources/resource";
import { userSites, users } from "../src/resources/users/users.table";
import { createSite } from "../src/seed/factories";
import { databaseKinds, startApp, type TestApp } from "./helpers";

/**
 * The hooks later resources need (patients with parts and children, projects and users with
 * siteIds, site-scoped rows), exercised through a small user-like description.
 */
const schema = z.strictObject({
  id: z.number().nullish(),
  uuid: z.string().optional(),
  version: z.number().optional(),
  email: z.string().max(254),
  password: z.string().max(50).optional(),
  profile: z.strictObject({ firstName: z.string().max(50), lastName: z.string().max(50) }),
  siteIds: z.array(z.number().int().positive().max(2_147_483_647)),
});
type Input = z.infer<typeof schema>;

const people = defineResource<Input>({
  name: "users",
  table: users,
  schema,
  validate: (input): FieldErrors =>
    input.profile?.firstName ? {} : { "profile.firstName": "First name is required" },
  formats: {
    view: {
      fields: {
        id: users.id,
        uuid: users.uuid,
        version: users.version,
        email: users.email,
        profile: { firstName: users.firstName, lastName: users.lastName },
      },
    },
  },
  sort: { id: users.id, name: users.lastName },
  search: [users.email, users.lastName],
  scope: (user: SessionUser | null) =>
    user?.isAdmin
      ? undefined
      : sql`${users.id} in (select user_id from user_sites where site_id = any(${`{${(user?.siteIds ?? []).join(",")}}`}::int[]))`,
  toRow: (input, { existing }) => ({
    email: input.email,
    firstName: input.profile.firstName,
    lastName: input.profile.lastName,
    ...(input.password || !existing ? { passwordHash: `not-a-real-hash:${input.password}` } : {}),
  }),
  writeChildren: async (id, input, { tx }) => {
    await tx.delete(userSites).where(eq(userSites.userId, id));
    if (input.siteIds.length > 0)
      await tx.insert(userSites).values(input.siteIds.map((siteId) => ({ userId: id, siteId })));
  },
  expand: async (db, records) => {
    const links = await db
      .select()
      .from(userSites)
      .where(
        inArray(
          userSites.userId,
          records.map((r) => r.id as number),
        ),
      );
    return records.map((r) => ({
      ...r,
      siteIds: links
        .filter((l) => l.userId === r.id)
        .map((l) => l.siteId)
        .sort(),
    }));
  },
  secretFields: ["password"],
});

describe.each(databaseKinds)("the resource machinery's hooks on %s", (kind) => {
  let t: TestApp;
  let service: ReturnType<typeof resourceService<Input>>;
  let siteA: number;
  let siteB: number;
  const admin = {
    id: 0,
    uuid: "usr-admin",
    email: "a@x",
    profile: { firstName: "A", lastName: "B" },
    isAdmin: true,
    siteIds: [],
    kind: "user" as const,
  };
  const change = (requestId: string) => ({ userId: null, userName: "Tester", requestId, reason: null });
  beforeAll(async () => {
    t = await startApp(kind);
    service = resourceService(t.database.db as Db, people);
    siteA = (await createSite(t.database.db)).id;
    siteB = (await createSite(t.database.db)).id;
  });
  afterAll(() => t.close());

  const body = (overrides: Partial<Input> = {}): Input => ({
    email: `p${Math.random().toString(36).slice(2)}@example.com`,
    password: "secret-password",
    profile: { firstName: "Petra", lastName: "Part" },
    siteIds: [siteA, siteB],
    ...overrides,
  });

  it("writes nested parts and children in one transaction and reads them back whole", async () => {
    const record = await service.create(body(), admin, change("r1"));
    expect(record).toMatchObject({
      version: 1,
      profile: { firstName: "Petra", lastName: "Part" },
      siteIds: [siteA, siteB].sort(),
    });
    expect(JSON.stringify(record)).not.toContain("secret-password");
    const [event] = await auditTrail(t.database.db, "users", record.uuid as string);
    expect(event.changes).toEqual(
      expect.arrayContaining([
        { field: "profile.firstName", old: null, new: "Petra" },
        { field: "siteIds", old: null, new: [siteA, siteB].sort() },
        { field: "password", old: null, new: "changed" },
      ]),
    );
  });

  it("records changed children and parts on update, and keeps the secret when none is sent", async () => {
    const created = await service.create(body(), admin, change("r2"));
    const { password: _, ...withoutPassword } = body({ email: created.email as string, siteIds: [siteB] });
    const updated = await service.update(
      created.uuid as string,
      { ...withoutPassword, profile: { firstName: "Petra", lastName: "Partner" }, version: 1 },
      admin,
      change("r3"),
    );
    expect(updated).toMatchObject({ version: 2, siteIds: [siteB], profile: { lastName: "Partner" } });
    const [event] = await auditTrail(t.database.db, "users", created.uuid as string);
    expect(event.changes).toEqual([
      { field: "profile.lastName", old: "Part", new: "Partner" },
      { field: "siteIds", old: [siteA, siteB].sort(), new: [siteB] },
    ]);
    const [row] = await queryRows<{ password_hash: string }>(
      t.database.db,
      sql`select password_hash from users where uuid = ${created.uuid as string}`,
    );
    expect(row.password_hash).toBe("not-a-real-hash:secret-password");
  });

  it("rolls everything back when a child cannot be written", async () => {
    const input = body({ email: "rollback@example.com", siteIds: [siteA, 999_999] });
    await expect(service.create(input, admin, change("r4"))).rejects.toBeInstanceOf(AppError);
    const rows = await t.database.db.select().from(users).where(eq(users.email, "rollback@example.com"));
    expect(rows).toEqual([]);
  });

  it("places a nested part's message on its dotted path", async () => {
    const error = await service
      .create(body({ profile: { firstName: "", lastName: "X" } }), admin, change("r5"))
      .catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.fieldErrors).toEqual([{ field: "profile.firstName", message: "First name is required" }]);
  });

  it("limits list, get, update and delete to the caller's rows (site scope)", async () => {
    const onA = await service.create(body({ siteIds: [siteA] }), admin, change("r6"));
    const onB = await service.create(body({ siteIds: [siteB] }), admin, change("r7"));
    const staffOfB = { ...admin, isAdmin: false, siteIds: [siteB] };
    const listed = await service.list({ pagesize: "1000" }, staffOfB, 20);
    const uuids = listed.items.map((r) => r.uuid);
    expect(uuids).toContain(onB.uuid);
    expect(uuids).not.toContain(onA.uuid);
    expect(listed.pagination.total).toBe(listed.items.length);
    for (const attempt of [
      () => service.get(onA.uuid as string, {}, staffOfB),
      () => service.update(onA.uuid as string, { ...body(), version: 1 }, staffOfB, change("r8")),
      () => service.remove(onA.uuid as string, staffOfB, change("r9")),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ status: 404 });
    }
    expect(await service.get(onA.uuid as string, {}, admin)).toMatchObject({ uuid: onA.uuid });
  });

  it("deletes owned children with the record and records the delete", async () => {
    const created = await service.create(body(), admin, change("r10"));
    await service.remove(created.uuid as string, admin, change("r11"));
    const links = await t.database.db
      .select()
      .from(userSites)
      .where(and(eq(userSites.userId, created.id as number)));
    expect(links).toEqual([]);
    const events: AuditEvent[] = await auditTrail(t.database.db, "users", created.uuid as string);
    expect(events.map((e) => e.action)).toEqual(["delete", "create"]);
  });
});
