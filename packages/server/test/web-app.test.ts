import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds, startApp, type TestApp } from "./helpers";

describe.each(databaseKinds.slice(0, 1))("serving the web app (%s)", (kind) => {
  let t: TestApp;
  let bare: TestApp;
  let dist = "";
  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), "trialdesk-dist-"));
    await writeFile(path.join(dist, "index.html"), "<!doctype html><title>Trialdesk</title>");
    t = await startApp(kind, { config: { webDist: dist } });
    bare = await startApp(kind, { config: { webDist: path.join(dist, "missing") } });
  });
  afterAll(async () => {
    await t.close();
    await bare.close();
    await rm(dist, { recursive: true, force: true });
  });

  it("answers deep links with index.html, and /index.html too", async () => {
    for (const url of ["/", "/index.html", "/therapy-categories/thc-1/edit", "/login"]) {
      const res = await t.app.inject({ method: "GET", url, headers: { accept: "text/html" } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain("<title>Trialdesk</title>");
    }
  });

  it("keeps /api answers in the envelope", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/unknown", headers: { accept: "text/html" } });
    expect(res.statusCode).toBe(404);
    expect(res.json().header.errorCode).toBe("NOT_FOUND");
  });

  it("tells to build the web app when it is missing", async () => {
    const res = await bare.app.inject({ method: "GET", url: "/", headers: { accept: "text/html" } });
    expect(res.body).toContain("npm run build");
  });

  it("serves the API documentation", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/therapy-categories", "/api/therapy-areas/{id}", "/api/auth"]),
    );
    expect(JSON.stringify(doc.paths["/api/therapy-categories"].post)).toContain("name");
  });
});
