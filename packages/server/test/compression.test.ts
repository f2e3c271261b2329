import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chosenEncoding } from "../src/http/compression";
import { createTherapyCategory } from "../src/seed/factories";
import { databaseKinds, type Session, startApp, type TestApp } from "./helpers";

/** HTTP compression (issue 14): JSON and static answers above 1 KB go out gzip or brotli encoded. */
describe.each(databaseKinds.slice(0, 1))("compression (%s)", (kind) => {
  let t: TestApp;
  let dist = "";
  let session: Session;
  const script = `console.log(${JSON.stringify("trialdesk ".repeat(400))});\n`;
  const builtBrotli = zlib.brotliCompressSync(script, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
  });
  const builtGzip = zlib.gzipSync(script, { level: 9 });
  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), "trialdesk-dist-"));
    await mkdir(path.join(dist, "assets"));
    await writeFile(
      path.join(dist, "index.html"),
      `<!doctype html><title>Trialdesk</title><!-- ${"padding ".repeat(200)} -->`,
    );
    await writeFile(path.join(dist, "assets", "app-1234.js"), script);
    // Another with the .br and .gz the web build writes beside each file (its precompress).
    await writeFile(path.join(dist, "assets", "built-5678.js"), script);
    await writeFile(path.join(dist, "assets", "built-5678.js.br"), builtBrotli);
    await writeFile(path.join(dist, "assets", "built-5678.js.gz"), builtGzip);
    t = await startApp(kind, {
      config: { webDist: dist },
      // An answer past the size compressed on the request's own thread (decision 147).
      routes: (app) =>
        app.get("/api/test/large", { config: { access: "public" } }, async () => ({
          rows: Array.from({ length: 5000 }, (_, i) => ({ row: i, text: `row ${i} of the large answer` })),
        })),
    });
    session = await t.signedInUser({ isAdmin: true });
    for (let i = 0; i < 40; i++)
      await createTherapyCategory(t.database.db, { name: `Compressed category ${i}` });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dist, { recursive: true, force: true });
  });

  const list = (encoding?: string, pagesize = 40) =>
    t.app.inject({
      method: "GET",
      url: `/api/therapy-categories?pagesize=${pagesize}&searchTerm=Compressed`,
      headers: {
        authorization: `Bearer ${session.accessToken}`,
        ...(encoding ? { "accept-encoding": encoding } : {}),
      },
    });

  it("gzips a JSON list in its envelope, and brotli when the client prefers it", async () => {
    const gzip = await list("gzip");
    expect(gzip.statusCode).toBe(200);
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    const body = JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString("utf8"));
    expect(body.header.result).toBe("success");
    expect(body.data.items).toHaveLength(40);
    expect(gzip.rawPayload.length).toBeLessThan(JSON.stringify(body).length / 2);

    const br = await list("br;q=1, gzip;q=0.5");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString("utf8")).data).toEqual(body.data);
    expect(Number(br.headers["content-length"])).toBe(br.rawPayload.length);
    // Caches keep the encodings apart; a client refusing brotli gets gzip, refusing both gets neither.
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect((await list("br;q=0, *")).headers["content-encoding"]).toBe("gzip");
    expect((await list("br;q=0, gzip;q=0")).headers["content-encoding"]).toBeUndefined();
    expect((await list("identity")).headers["content-encoding"]).toBeUndefined();
  });

  it("compresses answers above 64 KB as well as small ones, in either encoding", async () => {
    const large = (encoding: string) =>
      t.app.inject({ method: "GET", url: "/api/test/large", headers: { "accept-encoding": encoding } });
    const br = await large("br");
    const gzip = await large("gzip");
    expect([br.headers["content-encoding"], gzip.headers["content-encoding"]]).toEqual(["br", "gzip"]);
    const plain = JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString("utf8"));
    expect(plain.rows).toHaveLength(5000);
    expect(JSON.stringify(plain).length).toBeGreaterThan(64 * 1024);
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString("utf8"))).toEqual(plain);
    expect(Number(br.headers["content-length"])).toBe(br.rawPayload.length);
  });

  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["gzip;q=1, br;q=0.8", "gzip"],
    ["BR", "br"],
    ["*", "br"],
    ["*;q=0, gzip", "gzip"],
    ["deflate", null],
    ["", null],
    [undefined, null],
  ])("answers %j with the encoding %j", (header, encoding) => {
    expect(chosenEncoding(header)).toBe(encoding);
  });

  it("leaves answers alone for clients that ask for none, and small answers (below 1 KB)", async () => {
    const plain = await list();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.json().data.items).toHaveLength(40);

    const small = await list("gzip", 1);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.json().data.items).toHaveLength(1);
  });

  it("compresses the static web app: assets and the index.html of a deep link", async () => {
    const asset = await t.app.inject({
      method: "GET",
      url: "/assets/app-1234.js",
      headers: { "accept-encoding": "gzip" },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(asset.rawPayload).toString("utf8")).toBe(script);

    const page = await t.app.inject({
      method: "GET",
      url: "/patients/pat-1/edit",
      headers: { accept: "text/html", "accept-encoding": "br" },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(page.rawPayload).toString("utf8")).toContain("<title>Trialdesk</title>");
  });

  it("sends the build's own .br and .gz of an asset as they are, and the asset to who takes neither", async () => {
    const get = (encoding: string) =>
      t.app.inject({ method: "GET", url: "/assets/built-5678.js", headers: { "accept-encoding": encoding } });
    const br = await get("gzip, deflate, br");
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers["cache-control"]).toContain("immutable");
    expect(br.rawPayload.equals(builtBrotli)).toBe(true);
    const gz = await get("gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.rawPayload.equals(builtGzip)).toBe(true);
    const plain = await get("identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(script);
  });
});
