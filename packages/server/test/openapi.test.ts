import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "./helpers";

const run = promisify(execFile);
// The project's own compiler (TypeScript 7, the one `npm run typecheck` uses).
const tsc = resolve(import.meta.dirname, "../../../node_modules/.bin/tsc");

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };

/** The API's document, its TypeScript types as openapi-typescript makes them, and a client typed by them. */
describe("the API describes itself (OpenAPI)", () => {
  let t: TestApp;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };
  let dir: string;

  beforeAll(async () => {
    t = await startApp("pglite");
    doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    dir = await mkdtemp(join(tmpdir(), "trialdesk-openapi-"));
    await writeFile(join(dir, "api.d.ts"), astToString(await openapiTS(doc as never)));
    await writeFile(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", types: [] },
        include: ["*.ts"],
      }),
    );
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Typechecks `client.ts` (with the generated api.d.ts); answers the compiler's complaints. */
  async function typecheck(client: string): Promise<string> {
    await writeFile(join(dir, "client.ts"), client);
    try {
      await run(tsc, ["-p", join(dir, "tsconfig.json")]);
      return "";
    } catch (error) {
      return String((error as { stdout?: string }).stdout ?? error);
    }
  }

  it("describes every operation's successful answer with a schema", () => {
    expect(doc.openapi).toBe("3.0.3");
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.length).toBeGreaterThan(70);
    const undescribed = operations
      .filter(({ operation }) => {
        const ok = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith("2"));
        return !Object.values(ok?.[1].content ?? {}).some((media) => media.schema);
      })
      .map(({ path, method }) => `${method} ${path}`);
    expect(undescribed).toEqual([]);
  });

  it("gives a generated client the envelope, the list page and the record's fields", async () => {
    const client = `
      import type { paths } from "./api";
      type Json<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
        responses: { 200: { content: { "application/json": infer T } } };
      } ? T : never;

      export function firstCategoryCode(answer: Json<"/api/therapy-categories", "get">): string {
        const { header, data } = answer;
        const ok: "success" | "error" = header.result;
        const fieldError: string | undefined = header.fieldErrors[0]?.message;
        void ok; void fieldError;
        return data.items[0].code + data.pagination.total.toFixed(0);
      }
      export function patientName(answer: Json<"/api/patients/{id}", "get">): string {
        return answer.data.patientDetail.lastName + answer.data.barcode;
      }
      export function saved(answer: paths["/api/visits"]["post"]["responses"][201]["content"]["application/json"]): number {
        return answer.data.id;
      }
    `;
    expect(await typecheck(client)).toBe("");
  });

  it("makes the generated client refuse a field the API does not answer", async () => {
    const complaints = await typecheck(`
      import type { paths } from "./api";
      type Answer = paths["/api/therapy-categories/{id}"]["get"]["responses"][200]["content"]["application/json"];
      export function shoeSize(answer: Answer): number {
        const size: number = answer.data.shoeSize;
        return size;
      }
    `);
    expect(complaints).toContain("shoeSize");
    expect(complaints).toMatch(/error TS\d+/);
  });
});
