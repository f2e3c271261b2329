import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { loggableUrl } from "../src/http/logging";
import { appWithUser, freshDatabase, startApp, testConfig } from "./helpers";

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
