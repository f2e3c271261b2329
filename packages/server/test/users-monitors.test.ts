import type { AuditEvent, ListData, Monitor, User } from "@trialdesk/domain";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import {
  lastAdminDeleteMessage,
  lastAdminLock,
  lastAdminMessage,
  ownAdminFlagMessage,
  ownDeactivationMessage,
} from "../src/resources/users/users.resource";
import { wrongCurrentPasswordMessage } from "../src/resources/users/users.routes";
import { createSite, userInput as factoryUserInput, monitorInput } from "../src/seed/factories";
import { databaseKinds, expectCreated, type Session, startApp, type TestApp } from "./helpers";

const tooShort = "Password is too short. It should be at least 8 characters.";
const tooCommon = "Password is too common. Please choose one that is harder to guess.";
const publiclyKnown = "This password is publicly known (a demo password); choose another";
/** The factory's user with a password that is not on the common-password list. */
const userInput = (overrides: Parameters<typeof factoryUserInput>[0] = {}) =>
  factoryUserInput({ password: "Tidy-Heron-417", password2: "Tidy-Heron-417", ...overrides });

describe.each(databaseKinds)("users, monitors and passwords on %s", (kind) => {
  let t: TestApp;
  let admin: Session;
  let siteA: number;
  let siteB: number;
  beforeAll(async () => {
    t = await startApp(kind);
    admin = await t.signedInUser({ firstName: "Ada", lastName: "Admin", isAdmin: true });
    siteA = (await createSite(t.database.db)).id;
    siteB = (await createSite(t.database.db)).id;
  });
  afterAll(() => t.close());

  const call = <T>(method: "GET" | "POST" | "PUT", url: string, payload?: object, session = admin) =>
    t.request<T>({ method, url, session, payload });
  const history = (resource: string, uuid: string) =>
    call<{ items: AuditEvent[] }>("GET", `/api/audit?resource=${resource}&uuid=${uuid}`);
  const storedHash = async (table: "users" | "monitors", uuid: string) =>
    (
      await queryRows<{ password_hash: string }>(
        t.database.db,
        sql`select password_hash from ${sql.identifier(table)} where uuid = ${uuid}`,
      )
    )[0].password_hash;
  const refreshWith = (session: Session) =>
    t.request({
      method: "POST",
      url: "/api/token",
      payload: { type: "refresh_token" },
      cookies: { trialdesk_refresh: session.cookie },
    });

  describe("users", () => {
    it("gives every validation message of spec §5 in the spec's order", async () => {
      const res = await call("POST", "/api/users", {
        email: "",
        password: "",
        password2: "",
        profile: { firstName: "", lastName: "" },
        siteIds: [],
      });
      expect(res.status).toBe(400);
      expect(res.body.header.fieldErrors).toEqual([
        { field: "profile.firstName", message: "First name is required" },
        { field: "profile.lastName", message: "Last name is required" },
        { field: "email", message: "Email is required" },
        { field: "password", message: "Password is required" },
        { field: "password2", message: "Password confirmation is required" },
      ]);
      const mismatch = await call(
        "POST",
        "/api/users",
        userInput({ password: "secret-12", password2: "secret-13" }),
      );
      expect(mismatch.body.header.fieldErrors).toEqual([
        { field: "password2", message: "Passwords do not match" },
      ]);
      const short = await call("POST", "/api/users", userInput({ password: "short", password2: "short" }));
      expect(short.body.header.fieldErrors).toEqual([{ field: "password", message: tooShort }]);
      const long = await call(
        "POST",
        "/api/users",
        userInput({ password: "x".repeat(51), password2: "x".repeat(51) }),
      );
      expect(long.status).toBe(400);
      expect(long.body.header.fieldErrors.map((e) => e.field)).toContain("password");
    });

    it("keeps e-mails unique whatever their case", async () => {
      const first = await call<User>("POST", "/api/users", userInput({ email: "Unique.Person@example.com" }));
      expect(first.status).toBe(201);
      const clash = await call("POST", "/api/users", userInput({ email: "unique.person@EXAMPLE.com" }));
      expect(clash.status).toBe(400);
      expect(clash.body.header.fieldErrors).toEqual([{ field: "email", message: "Email is already in use" }]);
    });

    it("hashes the password and never answers it: save, get, list and audit", async () => {
      const password = "Very-secret-42";
      const input = userInput({ password, password2: password, siteIds: [siteB, siteA] });
      const created = await call<User>("POST", "/api/users", input);
      expectCreated(created, input.uuid, {
        email: input.email,
        lastPasswordChangeDate: expect.any(String),
        hasPassword: true,
        isActive: true,
        isAdmin: false,
        profile: input.profile,
        siteIds: [siteA, siteB].sort((a, b) => a - b),
      });
      const hash = await storedHash("users", input.uuid as string);
      expect(hash).not.toContain(password);
      expect(hash).toMatch(/^\$argon2id\$/);

      const got = await call<User>("GET", `/api/users/${input.uuid}`);
      const listed = await call<ListData<User>>("GET", `/api/users?pagesize=1000&searchTerm=${input.email}`);
      const updated = await call<User>("PUT", `/api/users/${input.uuid}`, {
        ...got.body.data,
        password: "Another-secret-43",
        password2: "Another-secret-43",
      });
      expect(updated.status).toBe(200);
      const events = await history("users", input.uuid as string);
      for (const answer of [created, got, listed, updated, events]) {
        const text = JSON.stringify(answer.body);
        expect(text).not.toContain(password);
        expect(text).not.toContain("Another-secret-43");
        expect(text).not.toContain("$argon2");
        expect(text).not.toMatch(/passwordHash|password2/);
      }
      expect(events.body.data.items[0].changes).toContainEqual({
        field: "password",
        old: null,
        new: "changed",
      });
      expect(await storedHash("users", input.uuid as string)).not.toBe(hash);
      // The new password signs in; the old one no longer does.
      await expect(t.signIn(input.email, "Another-secret-43")).resolves.toBeTruthy();
      await expect(t.signIn(input.email, password)).rejects.toThrow();
    });

    it("keeps the password when an edit leaves it empty", async () => {
      const input = userInput();
      const created = await call<User>("POST", "/api/users", input);
      const hash = await storedHash("users", input.uuid as string);
      const res = await call<User>("PUT", `/api/users/${input.uuid}`, {
        ...created.body.data,
        profile: { firstName: "Renamed", lastName: "Person" },
        password: "",
        password2: "",
      });
      expect(res.status).toBe(200);
      expect(res.body.data.profile.firstName).toBe("Renamed");
      expect(await storedHash("users", input.uuid as string)).toBe(hash);
    });

    it("lists Id, Email and the name parts, sorted and searched by name", async () => {
      await call("POST", "/api/users", userInput({ profile: { firstName: "Zelda", lastName: "Zimmer" } }));
      const res = await call<ListData<User>>("GET", "/api/users?searchTerm=zimmer&order=name&direction=asc");
      expect(res.status).toBe(200);
      expect(res.body.data.items[0]).toMatchObject({ profile: { firstName: "Zelda", lastName: "Zimmer" } });
    });

    it("does not let an administrator remove their own flag or deactivate themselves", async () => {
      const me = await call<User>("GET", `/api/users/${admin.userId}`);
      const res = await call("PUT", `/api/users/${me.body.data.uuid}`, {
        ...me.body.data,
        isAdmin: false,
        isActive: false,
      });
      expect(res.status).toBe(400);
      expect(res.body.header.fieldErrors).toEqual([
        { field: "isAdmin", message: ownAdminFlagMessage },
        { field: "isActive", message: ownDeactivationMessage },
      ]);
      const after = await call<User>("GET", `/api/users/${admin.userId}`);
      expect(after.body.data).toMatchObject({ isAdmin: true, isActive: true, version: me.body.data.version });
    });
  });

  describe("deactivation", () => {
    it("refuses sign-in, refresh and the existing access token at once", async () => {
      const input = userInput();
      const created = await call<User>("POST", "/api/users", input);
      const session = await t.signIn(input.email, input.password as string);
      expect((await call("GET", "/api/me", undefined, session)).status).toBe(200);

      const res = await call<User>("PUT", `/api/users/${input.uuid}`, {
        ...created.body.data,
        isActive: false,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.isActive).toBe(false);

      expect((await call("GET", "/api/me", undefined, session)).status).toBe(401);
      expect((await refreshWith(session)).status).toBe(401);
      const signIn = await t.request({
        method: "POST",
        url: "/api/auth",
        payload: { username: input.email, password: input.password },
      });
      expect(signIn.status).toBe(401);
      expect(signIn.body.header.errorMessage).toBe("Invalid e-mail or password");
      // Even once reactivated, the old sign-in stays over.
      await call("PUT", `/api/users/${input.uuid}`, { ...res.body.data, isActive: true });
      expect((await refreshWith(session)).status).toBe(401);
      await expect(t.signIn(input.email, input.password as string)).resolves.toBeTruthy();
    });
  });

  describe("password reset and common passwords", () => {
    it("ends every sign-in of a user whose password an administrator resets", async () => {
      const input = userInput();
      const created = await call<User>("POST", "/api/users", input);
      const session = await t.signIn(input.email, input.password as string);
      const other = await t.signIn(input.email, input.password as string);
      const reset = await call<User>("PUT", `/api/users/${input.uuid}`, {
        ...created.body.data,
        password: "Fresh-Otter-903",
        password2: "Fresh-Otter-903",
      });
      expect(reset.status).toBe(200);
      expect((await refreshWith(session)).status).toBe(401);
      expect((await refreshWith(other)).status).toBe(401);
      await expect(t.signIn(input.email, "Fresh-Otter-903")).resolves.toBeTruthy();
      // An edit that keeps the password leaves the sessions alone.
      const fresh = await t.signIn(input.email, "Fresh-Otter-903");
      const latest = await call<User>("GET", `/api/users/${input.uuid}`);
      await call("PUT", `/api/users/${input.uuid}`, {
        ...latest.body.data,
        profile: { firstName: "New", lastName: "Name" },
      });
      expect((await refreshWith(fresh)).status).toBe(200);
    });

    it("refuses a common password after the length rule, on create, reset and own change", async () => {
      const common = await call(
        "POST",
        "/api/users",
        userInput({ password: "password123", password2: "password123" }),
      );
      expect(common.status).toBe(400);
      expect(common.body.header.fieldErrors).toEqual([{ field: "password", message: tooCommon }]);
      const short = await call("POST", "/api/users", userInput({ password: "qwerty", password2: "qwerty" }));
      expect(short.body.header.fieldErrors).toEqual([{ field: "password", message: tooShort }]);

      const input = userInput();
      const created = await call<User>("POST", "/api/users", input);
      const reset = await call("PUT", `/api/users/${input.uuid}`, {
        ...created.body.data,
        password: "Sunshine1",
        password2: "Sunshine1",
      });
      expect(reset.body.header.fieldErrors).toEqual([{ field: "password", message: tooCommon }]);

      const session = await t.signIn(input.email, input.password as string);
      const own = await call(
        "POST",
        "/api/me/password",
        { currentPassword: input.password, password: "iloveyou1", password2: "iloveyou1" },
        session,
      );
      expect(own.status).toBe(400);
      expect(own.body.header.fieldErrors).toEqual([{ field: "password", message: tooCommon }]);
    });

    it("refuses a common password for a monitor too, on create and on reset: monitors sign in", async () => {
      const common = await call(
        "POST",
        "/api/monitors",
        monitorInput({ password: "password123", password2: "password123" }),
      );
      expect(common.status).toBe(400);
      expect(common.body.header.fieldErrors).toEqual([{ field: "password", message: tooCommon }]);
      const monitor = monitorInput();
      const saved = await call<Monitor>("POST", "/api/monitors", monitor);
      expect(saved.status).toBe(201);
      const reset = await call("PUT", `/api/monitors/${monitor.uuid}`, {
        ...saved.body.data,
        password: "Sunshine1",
        password2: "Sunshine1",
      });
      expect(reset.status).toBe(400);
      expect(reset.body.header.fieldErrors).toEqual([{ field: "password", message: tooCommon }]);
    });

    it("refuses the demo passwords for new users and monitors, a reset and an own change (issue 46, point 17)", async () => {
      const refused = [{ field: "password", message: publiclyKnown }];
      // The demo seed's passwords (README), whatever their case.
      for (const password of ["admin1234", "staff1234", "monitor1234", "Admin1234"]) {
        const user = await call("POST", "/api/users", userInput({ password, password2: password }));
        expect(user.status, password).toBe(400);
        expect(user.body.header.fieldErrors).toEqual(refused);
        const monitor = await call("POST", "/api/monitors", monitorInput({ password, password2: password }));
        expect(monitor.status, password).toBe(400);
        expect(monitor.body.header.fieldErrors).toEqual(refused);
      }

      const input = userInput();
      const created = await call<User>("POST", "/api/users", input);
      const hash = await storedHash("users", input.uuid as string);
      const reset = await call("PUT", `/api/users/${input.uuid}`, {
        ...created.body.data,
        password: "staff1234",
        password2: "staff1234",
      });
      expect(reset.status).toBe(400);
      expect(reset.body.header.fieldErrors).toEqual(refused);
      const monitor = monitorInput();
      const saved = await call<Monitor>("POST", "/api/monitors", monitor);
      const monitorReset = await call("PUT", `/api/monitors/${monitor.uuid}`, {
        ...saved.body.data,
        password: "monitor1234",
        password2: "monitor1234",
      });
      expect(monitorReset.status).toBe(400);
      expect(monitorReset.body.header.fieldErrors).toEqual(refused);

      const session = await t.signIn(input.email, input.password as string);
      const own = await call(
        "POST",
        "/api/me/password",
        { currentPassword: input.password, password: "admin1234", password2: "admin1234" },
        session,
      );
      expect(own.status).toBe(400);
      expect(own.body.header.fieldErrors).toEqual(refused);
      expect(await storedHash("users", input.uuid as string)).toBe(hash);
      await expect(t.signIn(input.email, input.password as string)).resolves.toBeTruthy();
    });
  });

  describe("change password", () => {
    const change = (session: Session, payload: object) =>
      call<{ changed: boolean }>("POST", "/api/me/password", payload, session);

    it("checks the rules and the current password", async () => {
      const session = await t.signedInUser({ password: "old-password" });
      const cases: [object, { field: string; message: string }[]][] = [
        [
          {},
          [
            { field: "currentPassword", message: "Current password is required" },
            { field: "password", message: "Password is required" },
            { field: "password2", message: "Password confirmation is required" },
          ],
        ],
        [
          { currentPassword: "old-password", password: "new-password", password2: "new-passw0rd" },
          [{ field: "password2", message: "Passwords do not match" }],
        ],
        [
          { currentPassword: "old-password", password: "short", password2: "short" },
          [{ field: "password", message: tooShort }],
        ],
        [
          { currentPassword: "wrong-password", password: "new-password", password2: "new-password" },
          [{ field: "currentPassword", message: wrongCurrentPasswordMessage }],
        ],
      ];
      for (const [payload, fieldErrors] of cases) {
        const res = await change(session, payload);
        expect(res.status, JSON.stringify(payload)).toBe(400);
        expect(res.body.header.fieldErrors).toEqual(fieldErrors);
      }
      const unknown = await change(session, { currentPassword: "old-password", password: "x", extra: 1 });
      expect(unknown.status).toBe(400);
      expect(
        await t.signIn(
          (await call<{ email: string }>("GET", "/api/me", undefined, session)).body.data.email,
          "old-password",
        ),
      ).toBeTruthy();
    });

    it("counts wrong current passwords as failed sign-ins of the account: 429 at its limit (issue 46, point 17)", async () => {
      const session = await t.signedInUser({ password: "old-password" });
      const { email } = (await call<{ email: string }>("GET", "/api/me", undefined, session)).body.data;
      const attempt = (currentPassword: string) =>
        change(session, { currentPassword, password: "Quiet-Otter-582", password2: "Quiet-Otter-582" });
      // LOGIN_RATE_LIMIT (5) wrong ones answer as before …
      for (let i = 0; i < 5; i++) {
        const wrong = await attempt(`wrong-password-${i}`);
        expect(wrong.status).toBe(400);
        expect(wrong.body.header.fieldErrors).toEqual([
          { field: "currentPassword", message: wrongCurrentPasswordMessage },
        ]);
      }
      // … then the account is at its limit: even the right one is refused, as a sign-in would be.
      const limited = await attempt("old-password");
      expect(limited.status).toBe(429);
      expect(limited.body.header.errorMessage).toBe(
        "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
      );
      const signIn = await t.request({
        method: "POST",
        url: "/api/auth",
        payload: { username: email, password: "old-password" },
        remoteAddress: "10.46.17.2",
      });
      expect(signIn.status).toBe(429);
      // The password did not change.
      expect((await refreshWith(session)).status).toBe(200);
    });

    it("gives back a right current password's attempt: it clears the account's failures like a sign-in", async () => {
      const session = await t.signedInUser({ password: "old-password" });
      const { email } = (await call<{ email: string }>("GET", "/api/me", undefined, session)).body.data;
      for (let i = 0; i < 4; i++)
        expect(
          (
            await change(session, {
              currentPassword: "wrong",
              password: "Quiet-Otter-582",
              password2: "Quiet-Otter-582",
            })
          ).status,
        ).toBe(400);
      const changed = await change(session, {
        currentPassword: "old-password",
        password: "Quiet-Otter-582",
        password2: "Quiet-Otter-582",
      });
      expect(changed.status).toBe(200);
      const wrongSignIn = () =>
        t.request({
          method: "POST",
          url: "/api/auth",
          payload: { username: email, password: "still-wrong" },
          remoteAddress: "10.46.17.3",
        });
      // Four failures were cleared: four more wrong sign-ins are still answered 401, not 429.
      for (let i = 0; i < 4; i++) expect((await wrongSignIn()).status).toBe(401);
    });

    it("changes it, ends every other sign-in and keeps this browser signed in", async () => {
      const other = await t.signedInUser({ password: "old-password" });
      const { email } = (await call<{ email: string }>("GET", "/api/me", undefined, other)).body.data;
      const here = await t.signIn(email, "old-password");
      const before = await queryRows<{ password_hash: string; uuid: string }>(
        t.database.db,
        sql`select password_hash, uuid from users where id = ${here.userId}`,
      );

      const res = await change(here, {
        currentPassword: "old-password",
        password: "brand-new-password",
        password2: "brand-new-password",
      });
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain("brand-new-password");
      const fresh = res.cookies.find((c) => c.name === "trialdesk_refresh")?.value as string;
      expect(fresh).toBeTruthy();

      expect((await refreshWith(other)).status).toBe(401);
      expect((await refreshWith(here)).status).toBe(401);
      expect((await refreshWith({ ...here, cookie: fresh })).status).toBe(200);
      await expect(t.signIn(email, "old-password")).rejects.toThrow();
      await expect(t.signIn(email, "brand-new-password")).resolves.toBeTruthy();

      const hash = await storedHash("users", before[0].uuid);
      expect(hash).not.toBe(before[0].password_hash);
      expect(hash).not.toContain("brand-new-password");
      const events = await history("users", before[0].uuid);
      expect(events.body.data.items[0].changes).toEqual([{ field: "password", old: null, new: "changed" }]);
      const me = await call<User>("GET", `/api/users/${here.userId}`);
      expect(me.body.data.lastPasswordChangeDate).toBeTruthy();
    });
  });

  describe("monitors", () => {
    it("gives the user rules' messages, in order", async () => {
      const res = await call("POST", "/api/monitors", {
        email: "",
        firstName: "",
        lastName: "",
        password: "",
        password2: "",
      });
      expect(res.body.header.fieldErrors).toEqual([
        { field: "firstName", message: "First name is required" },
        { field: "lastName", message: "Last name is required" },
        { field: "email", message: "Email is required" },
        { field: "password", message: "Password is required" },
        { field: "password2", message: "Password confirmation is required" },
      ]);
      const mismatch = await call(
        "POST",
        "/api/monitors",
        monitorInput({ password: "abcdefgh", password2: "abcdefgi" }),
      );
      expect(mismatch.body.header.fieldErrors).toEqual([
        { field: "password2", message: "Passwords do not match" },
      ]);
      const short = await call("POST", "/api/monitors", monitorInput({ password: "abc", password2: "abc" }));
      expect(short.body.header.fieldErrors).toEqual([{ field: "password", message: tooShort }]);
    });

    it("keeps e-mails unique whatever their case", async () => {
      expect(
        (await call("POST", "/api/monitors", monitorInput({ email: "Mon.Itor@example.com" }))).status,
      ).toBe(201);
      const clash = await call("POST", "/api/monitors", monitorInput({ email: "mon.itor@example.COM" }));
      expect(clash.status).toBe(400);
      expect(clash.body.header.fieldErrors).toEqual([{ field: "email", message: "Email is already in use" }]);
    });

    it("hashes the password and never answers it", async () => {
      const input = monitorInput({ password: "monitor-secret", password2: "monitor-secret" });
      const created = await call<Monitor>("POST", "/api/monitors", input);
      expectCreated(created, input.uuid, {
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        isActive: true,
        hasPassword: true,
      });
      const hash = await storedHash("monitors", input.uuid as string);
      expect(hash).toMatch(/^\$argon2id\$/);
      const got = await call<Monitor>("GET", `/api/monitors/${input.uuid}`);
      const updated = await call<Monitor>("PUT", `/api/monitors/${input.uuid}`, {
        ...got.body.data,
        isActive: false,
        password: "",
        password2: "",
      });
      expect(updated.body.data.isActive).toBe(false);
      expect(await storedHash("monitors", input.uuid as string)).toBe(hash);
      const listed = await call("GET", "/api/monitors?pagesize=1000");
      const events = await history("monitors", input.uuid as string);
      for (const answer of [created, got, updated, listed, events]) {
        const text = JSON.stringify(answer.body);
        expect(text).not.toContain("monitor-secret");
        expect(text).not.toContain("$argon2");
      }
      expect(events.body.data.items.at(-1)?.changes).toContainEqual({
        field: "password",
        old: null,
        new: "changed",
      });
    });
  });
});

describe.each(databaseKinds)("the last active administrator on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(() => t.close());

  it("cannot be deactivated, demoted or deleted, even by two administrators at the same moment", async () => {
    const first = await t.signedInUser({ isAdmin: true });
    const second = await t.signedInUser({ isAdmin: true });
    const read = async (id: number) =>
      (await t.request<User>({ method: "GET", url: `/api/users/${id}`, session: first })).body.data;
    const [a, b] = [await read(first.userId), await read(second.userId)];
    // Each deactivates the other at once: one of them must stay.
    const both = () =>
      Promise.all([
        t.request({
          method: "PUT",
          url: `/api/users/${b.uuid}`,
          session: first,
          payload: { ...b, isActive: false },
        }),
        t.request({
          method: "PUT",
          url: `/api/users/${a.uuid}`,
          session: second,
          payload: { ...a, isActive: false },
        }),
      ]);
    // On PostgreSQL the test holds the check's lock until both requests wait for it, so both are
    // past sign-in (neither is deactivated yet) and meet at the check. PGlite runs them in turn.
    const [byFirst, bySecond] =
      kind === "postgres"
        ? await (
            await t.database.db.transaction(async (tx) => {
              await tx.execute(lastAdminLock);
              const pending = both();
              for (let waiting = 0; waiting < 2; ) {
                await new Promise((resolve) => setTimeout(resolve, 20));
                [{ waiting }] = await queryRows<{ waiting: number }>(
                  tx,
                  sql`select count(*)::int as waiting from pg_locks
                      where locktype = 'advisory' and not granted
                        and database = (select oid from pg_database where datname = current_database())`,
                );
              }
              return { pending };
            })
          ).pending
        : await both();
    const statuses = [byFirst.status, bySecond.status].sort();
    expect(statuses).toEqual([200, 400]);
    const refused = byFirst.status === 400 ? byFirst : bySecond;
    expect(refused.body.header.fieldErrors).toEqual([{ field: "isActive", message: lastAdminMessage }]);
    const [survivor, gone] = byFirst.status === 200 ? [first, b] : [second, a];
    const active = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from users where is_admin and is_active`,
    );
    expect(active[0].n).toBe(1);

    // The survivor is now the last one: a third administrator cannot demote or remove them.
    const third = await t.signedInUser({ isAdmin: true });
    const last = await t.request<User>({
      method: "GET",
      url: `/api/users/${survivor.userId}`,
      session: third,
    });
    const demote = await t.request({
      method: "PUT",
      url: `/api/users/${last.body.data.uuid}`,
      session: third,
      payload: { ...last.body.data, isAdmin: false },
    });
    expect(demote.status).toBe(200); // the third is an active administrator too
    const thirdRecord = await t.request<User>({
      method: "GET",
      url: `/api/users/${third.userId}`,
      session: third,
    });
    const remove = await t.request({
      method: "DELETE",
      url: `/api/users/${thirdRecord.body.data.uuid}`,
      session: third,
    });
    expect(remove.status).toBe(409);
    expect(remove.body.header.errorMessage).toBe(lastAdminDeleteMessage);
    expect(gone.isAdmin).toBe(true);
  });
});
