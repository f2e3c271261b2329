import { count, eq } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditTrail } from "../src/audit/audit";
import { loadConfig } from "../src/config";
import { type Database, openPostgres } from "../src/db/client";
import { monitorAssignments } from "../src/resources/monitor-assignments/monitor-assignments.table";
import { monitors } from "../src/resources/monitors/monitors.table";
import { patients } from "../src/resources/patients/patients.table";
import { projects } from "../src/resources/projects/projects.table";
import { queries } from "../src/resources/queries/queries.table";
import { sites } from "../src/resources/sites/sites.table";
import { studies } from "../src/resources/studies/studies.table";
import { users } from "../src/resources/users/users.table";
import { demoMonitors, demoProjects, demoSites, demoStudies } from "../src/seed/demo-data";
import { demoPatientCount } from "../src/seed/demo-patients";
import { createUser, demoAdmin, demoStaff, upsertAdmin } from "../src/seed/factories";
import { seed } from "../src/seed/seed";
import { prepareDatabase } from "../src/startup";
import { databaseKinds, freshDatabase, postgresCopy, startApp, type TestApp } from "./helpers";

describe("safer defaults", () => {
  it("listens on 127.0.0.1 for the embedded demo, on every address with a real PostgreSQL, or on HOST", () => {
    expect(loadConfig({}).host).toBe("127.0.0.1");
    expect(loadConfig({ DATABASE_URL: "postgres://db/trialdesk" }).host).toBe("0.0.0.0");
    expect(loadConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  });

  it("refuses to start with a TOKEN_SECRET shorter than 32 bytes (issue 46)", () => {
    expect(() => loadConfig({ TOKEN_SECRET: "secret" })).toThrow(
      "TOKEN_SECRET must be at least 32 bytes long",
    );
    expect(() => loadConfig({ TOKEN_SECRET: "x".repeat(31) })).toThrow(/at least 32 bytes/);
    expect(loadConfig({ TOKEN_SECRET: "x".repeat(32) }).tokenSecret).toBe("x".repeat(32));
    expect(loadConfig({}).tokenSecret).toBeNull();
  });
});

describe.runIf(databaseKinds.includes("postgres"))("start-up of several servers on PostgreSQL", () => {
  it("starts two servers at the same moment on a new database: both run, one creates the administrator", async () => {
    const empty = await postgresCopy({ migrated: false });
    const servers = [openPostgres(empty.url, 2), openPostgres(empty.url, 2)];
    const env = { seed: "never" as const, adminEmail: "ops@example.org", adminPassword: "Steady-Otter-582" };
    try {
      const started = await Promise.all(servers.map((server) => prepareDatabase(server, env)));
      expect(started.flatMap((s) => s.messages).sort()).toEqual([
        "Administrator ops@example.org already exists: ADMIN_PASSWORD was not applied (npm run create-admin resets a password).",
        "Administrator ops@example.org created (ADMIN_EMAIL).",
      ]);
      const admins = await servers[0].db.select().from(users).where(eq(users.email, env.adminEmail));
      expect(admins).toHaveLength(1);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await empty.drop();
    }
  });

  it("starts two servers with SEED=always at the same moment on a new database: both run, the demo data is written once (issue 46, point 17)", async () => {
    const empty = await postgresCopy({ migrated: false });
    const servers = [openPostgres(empty.url, 2), openPostgres(empty.url, 2)];
    const env = { seed: "always" as const, adminEmail: null, adminPassword: null };
    try {
      const started = await Promise.allSettled(servers.map((server) => prepareDatabase(server, env)));
      expect(started.map((s) => (s.status === "fulfilled" ? s.value.seeded : String(s.reason)))).toEqual([
        true,
        true,
      ]);
      // Each table the seed writes checks by itself what exists: seeded twice at once, it had doubles.
      const rows = async (table: PgTable) =>
        Number((await servers[0].db.select({ n: count() }).from(table))[0].n);
      const counted = {
        sites: await rows(sites),
        projects: await rows(projects),
        studies: await rows(studies),
        patients: await rows(patients),
        monitors: await rows(monitors),
        monitorAssignments: await rows(monitorAssignments),
        queries: await rows(queries),
      };
      expect(counted).toEqual({
        sites: demoSites.length,
        projects: demoProjects.length,
        studies: demoStudies.length,
        patients: demoPatientCount,
        monitors: demoMonitors.length,
        monitorAssignments: 1,
        queries: 1,
      });
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await empty.drop();
    }
  }, 300_000);
});

describe.each(databaseKinds)("start-up on %s", (kind) => {
  let database: Database;
  let t: TestApp;
  const admin = { email: "first.admin@example.org", password: "Tidy-Heron-417" };
  const env = { seed: "never" as const, adminEmail: admin.email, adminPassword: admin.password };
  const signIn = (email: string, password: string) =>
    t.request({ method: "POST", url: "/api/auth", payload: { username: email, password } });

  beforeAll(async () => {
    database = await freshDatabase(kind);
    t = await startApp(kind, { database });
  });
  afterAll(async () => {
    await t.close();
    await database.close();
  });

  it("creates the ADMIN_EMAIL administrator once; a restart neither resets the password nor re-activates", async () => {
    const first = await prepareDatabase(database, env);
    expect(first.messages).toEqual([`Administrator ${admin.email} created (ADMIN_EMAIL).`]);
    const session = await t.signIn(admin.email, admin.password);
    const changed = await t.request({
      method: "POST",
      url: "/api/me/password",
      session,
      payload: {
        currentPassword: admin.password,
        password: "Changed-Lynx-208",
        password2: "Changed-Lynx-208",
      },
    });
    expect(changed.status).toBe(200);
    const [before] = await database.db.select().from(users).where(eq(users.email, admin.email));

    const restart = await prepareDatabase(database, env);
    expect(restart.messages[0]).toMatch(/already exists: ADMIN_PASSWORD was not applied/);
    expect((await signIn(admin.email, admin.password)).status).toBe(401);
    expect((await signIn(admin.email, "Changed-Lynx-208")).status).toBe(200);
    const [after] = await database.db.select().from(users).where(eq(users.email, admin.email));
    expect(after.version).toBe(before.version);
    expect(after.passwordHash).toBe(before.passwordHash);

    // A deactivated account stays deactivated across a restart.
    await database.db.update(users).set({ isActive: false }).where(eq(users.id, after.id));
    await prepareDatabase(database, env);
    const [still] = await database.db.select().from(users).where(eq(users.id, after.id));
    expect(still.isActive).toBe(false);
  });

  it("refuses a short or common ADMIN_PASSWORD for a new administrator", async () => {
    await expect(
      prepareDatabase(database, { ...env, adminEmail: "second@example.org", adminPassword: "password123" }),
    ).rejects.toThrow(/ADMIN_PASSWORD: Password is too common/);
    await expect(
      prepareDatabase(database, { ...env, adminEmail: "second@example.org", adminPassword: "short" }),
    ).rejects.toThrow(/ADMIN_PASSWORD: Password is too short/);
    await expect(
      prepareDatabase(database, { ...env, adminEmail: "second@example.org", adminPassword: "admin1234" }),
    ).rejects.toThrow("ADMIN_PASSWORD: This password is publicly known (a demo password); choose another");
  });

  it("create-admin on a deactivated administrator or another account writes its audit event, as the system (issue 46, point 17)", async () => {
    const email = "returning.admin@example.org";
    const first = await upsertAdmin(database.db, { email, password: "Tidy-Heron-417" });
    expect(first.created).toBe(true);
    const [row] = await database.db.select().from(users).where(eq(users.id, first.id));
    await database.db.update(users).set({ isActive: false }).where(eq(users.id, row.id));
    const before = await auditTrail(database.db, "users", row.uuid);

    expect(await upsertAdmin(database.db, { email, password: "Brisk-Falcon-630" })).toEqual({
      id: row.id,
      created: false,
    });
    const trail = await auditTrail(database.db, "users", row.uuid);
    expect(trail).toHaveLength(before.length + 1);
    expect(trail[0]).toMatchObject({ userId: null, userName: "system", action: "update" });
    expect(trail[0].changes).toEqual([
      { field: "isActive", old: false, new: true },
      { field: "password", old: null, new: "changed" },
    ]);
    expect((await signIn(email, "Brisk-Falcon-630")).status).toBe(200);

    // A staff member made administrator; an active administrator's reset names the password only.
    const staff = await createUser(database.db, { password: "Quiet-Lynx-284" });
    await upsertAdmin(database.db, { email: staff.email, password: "Brisk-Falcon-631" });
    expect((await auditTrail(database.db, "users", staff.uuid))[0].changes).toEqual([
      { field: "isAdmin", old: false, new: true },
      { field: "password", old: null, new: "changed" },
    ]);
    await upsertAdmin(database.db, { email, password: "Brisk-Falcon-632" });
    expect((await auditTrail(database.db, "users", row.uuid))[0].changes).toEqual([
      { field: "password", old: null, new: "changed" },
    ]);
  });

  it("SEED=always (seeding again) never resets an existing demo account's password", async () => {
    await seed(database.db, { demoAdmin: true });
    // The demo accounts get their demo passwords, which the account rules refuse to anyone else.
    expect((await signIn(demoStaff.email, demoStaff.password)).status).toBe(200);
    expect((await signIn(demoMonitors[0].email, demoMonitors[0].password)).status).toBe(200);
    const session = await t.signIn(demoAdmin.email, demoAdmin.password);
    await t.request({
      method: "POST",
      url: "/api/me/password",
      session,
      payload: {
        currentPassword: demoAdmin.password,
        password: "Own-Choice-771",
        password2: "Own-Choice-771",
      },
    });
    await seed(database.db, { demoAdmin: true });
    expect((await signIn(demoAdmin.email, demoAdmin.password)).status).toBe(401);
    expect((await signIn(demoAdmin.email, "Own-Choice-771")).status).toBe(200);
  }, 120_000);
});
