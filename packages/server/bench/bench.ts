import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error autocannon ships no types; the part used here is small.
import autocannon from "autocannon";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db/client";
import { createTherapyCategory, demoAdmin } from "../src/seed/factories";
import { seed } from "../src/seed/seed";

/**
 * npm run bench: p95 latency of list, search and detail calls against one server process
 * (DESIGN §7: under 25 ms). Uses a temporary PGlite database, or BENCH_DATABASE_URL (a database
 * the bench may fill). The patients issue extends this to 100,000 patients and saves.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = mkdtempSync(path.join(os.tmpdir(), "trialdesk-bench-"));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
const config = { ...loadConfig(), databaseUrl, dataDir };
const database = await openDatabase(config);
await database.migrate();
await seed(database.db, { demoAdmin: true });
for (let i = 0; i < 300; i++)
  await createTherapyCategory(database.db, { name: `Bench category ${i}` }).catch(() => {});
await database.close();

// The server runs as its own process, as in production, so the load generator does not share its CPU time.
const port = 3990;
const server = spawn(process.execPath, [...process.execArgv, path.join(here, "../src/main.ts")], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? "",
    SEED: "never",
    LOG_LEVEL: "warn",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (
    await fetch(`${base}/config.json`)
      .then((r) => r.ok)
      .catch(() => false)
  )
    break;
  if (i > 100) throw new Error("the server did not start");
  await new Promise((r) => setTimeout(r, 200));
}
const auth = await fetch(`${base}/api/auth`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ username: demoAdmin.email, password: demoAdmin.password }),
});
if (!auth.ok) throw new Error(`sign-in failed: ${auth.status}`);
const { accessToken } = ((await auth.json()) as { data: { accessToken: string } }).data;
const headers = { authorization: `Bearer ${accessToken}` };
const list = (await (await fetch(`${base}/api/therapy-categories?pagesize=1`, { headers })).json()) as {
  data: { items: { uuid: string }[] };
};
const uuid = list.data.items[0].uuid;

const cases = [
  ["therapy-categories list", "/api/therapy-categories?page=3&pagesize=20"],
  ["therapy-categories search", "/api/therapy-categories?searchTerm=category%2012&pagesize=20"],
  ["therapy-categories detail", `/api/therapy-categories/${uuid}`],
  ["therapy-areas list (join)", "/api/therapy-areas?page=1&pagesize=20&order=therapyCategoryName"],
  ["therapy-areas lookup", "/api/therapy-areas?page=1&pagesize=250"],
] as const;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const rows: Record<string, string | number>[] = [];
let failed = false;
for (const [name, url] of cases) {
  await autocannon({ url: base + url, headers, connections: 4, duration: 1 }); // warm-up
  const times: number[] = [];
  let errors = 0;
  const instance = autocannon({ url: base + url, headers, connections: 4, duration: 3 });
  instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
    times.push(ms);
    if (status !== 200) errors++;
  });
  const result = await instance;
  times.sort((a, b) => a - b);
  const p95 = percentile(times, 95);
  if (p95 >= 25 || errors > 0) failed = true;
  rows.push({
    call: name,
    requests: times.length,
    "req/s": Math.round(result.requests.average),
    "p50 ms": percentile(times, 50).toFixed(1),
    "p95 ms": p95.toFixed(1),
    "p99 ms": percentile(times, 99).toFixed(1),
    errors,
  });
}
console.log(`\nTrialdesk bench on ${database.kind} (4 connections, 3 s per call; bar: p95 < 25 ms)`);
console.table(rows);
server.kill("SIGTERM");
await new Promise((resolve) => server.once("exit", resolve));
rmSync(dataDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
