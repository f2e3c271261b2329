import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { DrizzleQueryError } from "drizzle-orm/errors";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { loggableError, loggableUrl } from "../src/http/logging";
import { appWithUser, databaseKinds, freshDatabase, startApp, type TestApp, testConfig } from "./helpers";

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("API answers are never cached", () => {
  const { t, session } = appWithUser("pglite", { isAdmin: true });

  it("sends Cache-Control: no-store on success, error, refusal and unknown API routes", async () => {
    const answers = [
      await t.request({ method: "GET", url: "/api/me", session }),
      await t.request({ method: "GET", url: "/api/me" }),
      await t.request({
        method: "POST",
        url: "/api/auth",
        payload: { username: "x@example.com", password: "nope" },
      }),
      await t.request({ method: "GET", url: "/api/patients?page=abc", session }),
      await t.request({ method: "GET", url: "/api/no-such-thing", session }),
      await t.request({ method: "GET", url: "/api/health" }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 401, 400, 404, 200]);
    for (const answer of answers) expect(answer.headers["cache-control"]).toBe("no-store");
  });

  it("answers GET /api/health without a token and without data", async () => {
    const res = await t.request<{ status: string }>({ method: "GET", url: "/api/health" });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: "ok" });
  });
});

describe("security headers", () => {
  const { t, session } = appWithUser("pglite", { isAdmin: false });

  it("sends the same security headers on API answers, refusals, the app's config and unknown paths", async () => {
    const answers = [
      await t.request({ method: "GET", url: "/api/me", session }),
      await t.request({ method: "GET", url: "/api/me" }),
      await t.request({ method: "GET", url: "/config.json" }),
      await t.request({ method: "GET", url: "/no/such/page.png" }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 200, 404]);
    for (const { headers } of answers) {
      const policy = String(headers["content-security-policy"]).split(";");
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("img-src 'self' data:");
      expect(policy).toContain("frame-ancestors 'self'");
      // Styles from the app's own files only; no https: anywhere, no inline style attributes. Only
      // <style> elements may be inline: Radix's dialog scroll lock writes one (issue 46, point 17).
      expect(policy).toContain("style-src 'self'");
      expect(policy).toContain("style-src-elem 'self' 'unsafe-inline'");
      expect(policy.filter((d) => d.startsWith("style-src"))).toEqual([
        "style-src 'self'",
        "style-src-elem 'self' 'unsafe-inline'",
      ]);
      expect(policy.some((d) => d.startsWith("upgrade-insecure-requests"))).toBe(false);
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(headers["referrer-policy"]).toBe("no-referrer");
      expect(headers["cross-origin-opener-policy"]).toBe("same-origin");
      // TLS ends in front of the server, which decides HSTS.
      expect(headers["strict-transport-security"]).toBeUndefined();
      expect(headers["x-powered-by"]).toBeUndefined();
    }
  });
});

describe("HSTS (issue 46, point 17)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp("pglite", { config: { trustProxy: ["10.0.0.5"] } });
  });
  afterAll(() => t.close());
  const hsts = async (url: string, headers: Record<string, string>, remoteAddress = "10.0.0.5") =>
    (await t.request({ method: "GET", url, headers, remoteAddress })).headers["strict-transport-security"];

  it("is sent on every answer served over HTTPS, as the trusted proxy says, and never over plain HTTP", async () => {
    const https = { "x-forwarded-proto": "https" };
    for (const url of ["/api/me", "/api/health", "/config.json", "/no/such/page.png"])
      expect(await hsts(url, https), url).toBe("max-age=31536000; includeSubDomains");
    expect(await hsts("/api/health", {})).toBeUndefined();
    expect(await hsts("/api/health", { "x-forwarded-proto": "http" })).toBeUndefined();
    // A client that is no trusted proxy cannot say it came over HTTPS.
    expect(await hsts("/api/health", https, "203.0.113.7")).toBeUndefined();
  });
});

describe("health when the database is gone", () => {
  it("answers 503", async () => {
    const database = await freshDatabase("pglite");
    const t = await startApp("pglite", { database });
    await database.close();
    const res = await t.request({ method: "GET", url: "/api/health" });
    expect(res.status).toBe(503);
    expect(res.body.header.errorCode).toBe("SERVICE_UNAVAILABLE");
    await t.app.close();
  });
});

describe("the log", () => {
  let app: FastifyInstance;
  let lines: string[];
  let close: () => Promise<void>;
  beforeAll(async () => {
    lines = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const database = await freshDatabase("pglite");
    app = await buildApp({ config: testConfig(), db: database.db, logger: { level: "info", stream } });
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
    };
  });
  afterAll(() => close());

  it("never holds the search terms (names, SSNs) of a request", async () => {
    await app.inject({
      method: "GET",
      url: "/api/patients?searchTerm=Kov%C3%A1cs%20123456789&page=2&pagesize=10",
    });
    await app.inject({ method: "GET", url: "/api/patient-lookup?search=Szab%C3%B3&siteId=1" });
    const log = lines.join("");
    expect(log).toContain("/api/patients?searchTerm=[hidden]&page=2&pagesize=10");
    expect(log).not.toMatch(/Kov|123456789|Szab/);
  });

  it("hides every query value but paging, sorting and format", () => {
    expect(loggableUrl("/api/users?searchTerm=ada&order=name&direction=desc")).toBe(
      "/api/users?searchTerm=[hidden]&order=name&direction=desc",
    );
    expect(loggableUrl("/api/audit?resource=patients&uuid=pat-1")).toBe(
      "/api/audit?resource=[hidden]&uuid=[hidden]",
    );
    expect(loggableUrl("/api/me")).toBe("/api/me");
  });
});

describe.each(databaseKinds)("the log of a failed statement on %s (issue 46, point 17)", (kind) => {
  let app: FastifyInstance;
  let lines: string[];
  let close: () => Promise<void>;
  // What a failed statement carried: a patient's SSN and a password hash.
  const ssn = "987-65-4321";
  const hash = "$argon2id$v=19$m=19456,t=2,p=1$bG9nZ2VkLXNhbHQ$c2VjcmV0LWhhc2gtb2YtYS1wYXNzd29yZA";
  beforeAll(async () => {
    lines = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const database = await freshDatabase(kind);
    const db = database.db;
    app = await buildApp({ config: testConfig(), db, logger: { level: "info", stream } });
    const open = { config: { access: "public" as const } };
    // A bad value (400, logged at info), a bug (500) and, on PostgreSQL, a statement timeout (503).
    app.get("/api/test/division", open, async () => db.execute(sql`select ${ssn}::text, 1 / 0`));
    app.get("/api/test/missing", open, async () => db.execute(sql`select ${hash}::text from no_such_table`));
    app.get("/api/test/slow", open, async () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local statement_timeout = 50`);
        return tx.execute(sql`select pg_sleep(2), ${ssn}::text, ${hash}::text`);
      }),
    );
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
    };
  });
  afterAll(() => close());

  const logOf = async (url: string) => {
    lines.length = 0;
    const res = await app.inject({ method: "GET", url });
    return { status: res.statusCode, log: lines.join("") };
  };

  it("writes the database error's code and message, never the statement's parameters", async () => {
    const division = await logOf("/api/test/division");
    expect(division.status).toBe(400);
    expect(division.log).toContain("22012");
    expect(division.log).toContain("division by zero");
    const missing = await logOf("/api/test/missing");
    expect(missing.status).toBe(500);
    expect(missing.log).toContain("42P01");
    expect(missing.log).toContain('relation \\"no_such_table\\" does not exist');
    for (const { log } of [division, missing]) {
      expect(log).not.toContain(ssn);
      expect(log).not.toContain("argon2id");
      expect(log).not.toMatch(/Failed query|params/);
    }
  });

  it.skipIf(kind !== "postgres")(
    "writes a statement timeout without the statement's parameters",
    async () => {
      const slow = await logOf("/api/test/slow");
      expect(slow.status).toBe(503);
      expect(slow.log).toContain("57014");
      expect(slow.log).toContain("canceling statement due to statement timeout");
      expect(slow.log).not.toContain(ssn);
      expect(slow.log).not.toContain("argon2id");
      expect(slow.log).not.toMatch(/Failed query|params/);
    },
  );

  it("hides a value a data error's message quotes", () => {
    const error = Object.assign(new Error('invalid input syntax for type integer: "987-65-4321"'), {
      code: "22P02",
    });
    const logged = JSON.stringify(loggableError(new DrizzleQueryError("select $1::int", [ssn], error)));
    expect(logged).toContain("22P02");
    expect(logged).toContain("invalid input syntax for type integer");
    expect(logged).not.toContain(ssn);
    // A statement whose connection was lost (no code), or that failed without a cause.
    const lost = new DrizzleQueryError("select $1", [ssn], new Error("Connection terminated unexpectedly"));
    expect(loggableError(lost)).toEqual({
      type: "DatabaseError",
      code: null,
      message: "Connection terminated unexpectedly",
    });
    expect(JSON.stringify(loggableError(new DrizzleQueryError("select $1", [ssn])))).not.toContain(ssn);
    // Any other error is logged as it is.
    const other = new Error("something else");
    expect(loggableError(other)).toBe(other);
  });
});

describe("runtime dependencies", () => {
  it("are all used by the server's code", () => {
    const manifest = JSON.parse(readFileSync(path.join(serverRoot, "package.json"), "utf8"));
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const file = path.join(dir, entry);
        if (statSync(file).isDirectory()) walk(file);
        else if (file.endsWith(".ts")) sources.push(readFileSync(file, "utf8"));
      }
    };
    walk(path.join(serverRoot, "src"));
    const code = sources.join("\n");
    const unused = Object.keys(manifest.dependencies).filter(
      (name) => !code.includes(`from "${name}"`) && !code.includes(`from "${name}/`),
    );
    expect(unused).toEqual([]);
  });
});
