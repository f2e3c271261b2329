import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { countBound, worklistHorizonDays } from "@trialdesk/domain";
import { loadConfig } from "@trialdesk/server/src/config";
import { type Database, openDatabase, queryRows } from "@trialdesk/server/src/db/client";
import { createUser, demoAdmin } from "@trialdesk/server/src/seed/factories";
import { seed } from "@trialdesk/server/src/seed/seed";
import { sql } from "drizzle-orm";
import pg from "pg";
import {
  type Case,
  cases,
  pageSize,
  type Raw,
  readFixtures,
  signInEmails,
  signInPassword,
  signInProxy,
  warmClients,
  warmSeconds,
} from "./cases";
import { analyze, type BenchSize, buildBenchData } from "./data";
import { type DrawFigures, drawSummary } from "./draw";
import { afterPause, type Figures, measureHttp, measureRaw, wireBytes } from "./measure";

/**
 * npm run bench (issue 14): the list, search, detail, summary and save calls of the issue against one
 * server process over HTTP (autocannon; one client and 32), each beside the same answer written by
 * hand in SQL through a plain pool — the floor. PostgreSQL when BENCH_DATABASE_URL is set: the bench
 * creates its own database on that server (and drops it), at 10,000 and 100,000 patients to show
 * growth. Otherwise a temporary embedded PGlite at 10,000 patients only. A table with the ratios is
 * printed and written as JSON under packages/bench/results/.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const serverUrl = process.env.BENCH_DATABASE_URL || null;
const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const sizes: BenchSize[] = (process.env.BENCH_PATIENTS ?? (serverUrl ? "10000,100000" : "10000"))
  .split(",")
  .map((n) => ({ patients: Number(n), patientVisits: Number(n) * 10 }));
const log = (line: string) => console.log(line);
const port = Number(process.env.BENCH_PORT ?? 3990);
/** A built web app (e.g. `vite build --outDir /tmp/dist`): the visit summary is also drawn in Chromium. */
const webDist =
  process.env.BENCH_WEB_DIST && existsSync(path.join(process.env.BENCH_WEB_DIST, "index.html"))
    ? process.env.BENCH_WEB_DIST
    : null;
const scheduleLimit = Number(process.env.BENCH_SCHEDULED_ASSIGNMENTS ?? 5_000);
/** Rounds of each call's 32-client figure beside its floor on PostgreSQL (BENCH_ROUNDS); medians. */
const floorRounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
/** The share of its floor's requests per second a call reaches with 32 clients to meet its target. */
const floorShareTarget = 0.4;
/** The run of median throughput among a call's rounds. */
const medianRun = (runs: Figures[]) =>
  [...runs].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(runs.length / 2)];
/** BENCH_CASES=worklist,summary runs only the cases whose names contain one of these words. */
const onlyCases = process.env.BENCH_CASES?.split(",").filter(Boolean) ?? [];
const chosen = (c: { name: string }) =>
  onlyCases.length === 0 || onlyCases.some((word) => c.name.includes(word));
const base = `http://127.0.0.1:${port}`;
/** The quiet before the "after a pause" figure: longer than pg-pool's default idle timeout of 10 s. */
const pauseMs = 12_000;

/** The drawing figures in words (medians of 5; see draw.ts). */
const drawText = (draw: DrawFigures) =>
  `first rows ${draw.openMs} ms after the click that opens it in the app (its answer in after ${draw.answerMs} ms), ${draw.loadMs} ms after loading its address (the app's start-up included); scrolled ${draw.scrolledPx.toLocaleString("en-US")} px down by the wheel in 3 s: frame p95 ${draw.frameP95Ms.toFixed(1)} ms, ${draw.longFrames} of ${draw.frames} frames over 1/30 s`;

/** A database of the bench's own: created on the given server, or a temporary PGlite folder. */
async function ownDatabase() {
  if (!serverUrl) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "trialdesk-bench-"));
    return { url: null, dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `trialdesk_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir: os.tmpdir(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** The hand-written SQL's connection: a plain pg pool as large as the server's, or PGlite itself. */
async function openRaw(url: string | null, dataDir: string): Promise<Raw & { close: () => Promise<void> }> {
  if (url) {
    // The server's session settings (no JIT), so the floor differs from it by the app alone.
    const pool = new pg.Pool({ connectionString: url, max: 10, options: "-c jit=off" });
    // pool.end() resolves once its clients are told to end, not once they have: the database's drop
    // (WITH FORCE) right after can still terminate one, and an unheard 'error' would end the run.
    pool.on("error", () => {});
    return {
      query: async (text, params) => (await pool.query(text, params)).rows,
      transaction: async (work) => {
        const client = await pool.connect();
        try {
          await client.query("begin");
          await work(async (text, params) => (await client.query(text, params)).rows);
          await client.query("commit");
        } catch (error) {
          await client.query("rollback");
          throw error;
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  const db = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  return {
    query: async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows,
    transaction: (work) =>
      db.transaction(async (tx) => work(async (text, params) => (await tx.query<never>(text, params)).rows)),
    close: () => db.close(),
  };
}

/**
 * The worklist's stored visit windows (issue 12), filled by the server's own engine after the data
 * is built. Loaded by path so the bench runs before and after the worklist exists.
 */
async function buildVisitSchedules(database: Database, siteId: number) {
  const modulePath = "@trialdesk/server/src/resources/visit-schedule/visit-schedule.ts";
  const schedule = await import(modulePath).catch(() => null);
  if (!schedule) return null;
  const [{ n }] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from study_patients`,
  );
  if (n <= scheduleLimit) {
    await schedule.rebuildVisitSchedules(database.db, { all: true });
  } else {
    // The engine writes ~40 rows per assignment at a few ms each: at 100,000 assignments that is a
    // quarter of an hour, so only the first assignments of the measured site get their windows.
    const ids = (
      await queryRows<{ id: number }>(
        database.db,
        sql`select sp.id from study_patients sp join patients p on p.id = sp.patient_id
          where p.recorder_site_id = ${siteId} order by sp.id limit ${scheduleLimit}`,
      )
    ).map((r) => r.id);
    for (let i = 0; i < ids.length; i += 2_000)
      await schedule.rebuildVisitSchedules(database.db, { studyPatientIds: ids.slice(i, i + 2_000) });
  }
  // Marks the schedules as made by this engine, so a server start does not rebuild them all.
  await database.db
    .execute(
      sql`insert into settings (key, value) values ('visit_schedule_engine_version', ${String(schedule.visitScheduleEngineVersion)})
        on conflict (key) do update set value = excluded.value`,
    )
    .catch(() => {});
  return Math.min(n, scheduleLimit);
}

function startServer(url: string | null, dataDir: string): ChildProcess {
  // Its own process, as in production, so the load generator does not share its event loop.
  return spawn(process.execPath, [...process.execArgv, path.join(here, "../server/src/main.ts")], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: url ?? "",
      SEED: "never",
      LOG_LEVEL: "warn",
      TRUST_PROXY: signInProxy,
      // One account plays all 32 clients, who stand for 32 people: its cap on expensive calls and the
      // turns of summaries (decisions 240, 241) would measure their 429s and waits, not the calls.
      EXPENSIVE_CALLS_PER_USER: "1000",
      EXPORTS_AT_ONCE: "1000",
      ...(webDist ? { WEB_DIST: webDist } : {}),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function waitForServer() {
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/config.json`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return;
    if (i > 300) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Waits until the server has answered what a run left in flight (autocannon stops at its deadline,
 * the server does not), so a slow call's backlog does not count against the next call.
 */
async function idle() {
  for (let i = 0; i < 100; i++) {
    const started = performance.now();
    await fetch(`${base}/config.json`).catch(() => {});
    if (performance.now() - started < 20) return;
  }
}

type Result = {
  call: string;
  one: Figures;
  /** None for a call measured with one client only. */
  many?: Figures;
  rawOne: Figures;
  rawMany: Figures;
  bytes?: { wire: number; json: number; encoding: string | null };
};

async function runSize(size: BenchSize) {
  const kind = serverUrl ? "PostgreSQL" : "PGlite";
  log(`\n== ${size.patients.toLocaleString("en-US")} patients on ${kind} ==`);
  const own = await ownDatabase();
  // Stopped by Ctrl-C or a timeout: the bench's database goes too.
  const stop = () => {
    server?.kill("SIGTERM");
    own.drop().finally(() => process.exit(130));
  };
  process.once("SIGINT", stop).once("SIGTERM", stop);
  let server: ChildProcess | null = null;
  try {
    const config = {
      ...loadConfig(),
      databaseUrl: own.url,
      dataDir: own.dataDir,
      databaseStatementTimeoutMs: 600_000,
    };
    const database = await openDatabase(config);
    await database.migrate();
    await seed(database.db, { demoAdmin: true });
    // One account per sign-in client: simultaneous sign-ins to one account are refused by design.
    for (const email of signInEmails) await createUser(database.db, { email, password: signInPassword });
    await database.close();

    log("Building the data in SQL:");
    let raw = await openRaw(own.url, own.dataDir);
    await buildBenchData((statement) => raw.query(statement), size, log);
    let started = performance.now();
    await analyze((statement) => raw.query(statement));
    log(`  vacuum analyze (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    const fixtures = await readFixtures(raw);
    // WORKLIST: the stored visit windows, by the server's own engine (PGlite: one user at a time).
    if (!own.url) await raw.close();
    const scheduling = await openDatabase(config);
    started = performance.now();
    const scheduled = await buildVisitSchedules(scheduling, fixtures.siteId);
    if (scheduled !== null)
      log(
        `  visit schedules of ${scheduled.toLocaleString("en-US")} assignments (${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    await scheduling.close();
    if (!own.url) raw = await openRaw(own.url, own.dataDir);
    await analyze((statement) => raw.query(statement));
    if (process.env.BENCH_ONLY_DATA) {
      await raw.close();
      return { size, kind, results: [] as Result[], draw: null, pausedMs: null };
    }

    // The floor first: PGlite's folder has one user at a time, so the server starts after.
    const results: Result[] = [];
    const placeholder = { auth: {}, write: {} };
    const list = cases(fixtures, placeholder.auth, placeholder.write).filter(chosen);
    log(`Hand-written SQL (${seconds} s each, 1 and 32 clients):`);
    /** Each call's floor, for measuring it beside the server's 32 clients (PostgreSQL only). */
    const floors = new Map<string, () => Promise<unknown>>();
    for (const c of list) {
      await c.rawBefore?.(raw);
      await measureRaw(() => c.raw(raw), c.oneClient ? 1 : warmClients, warmSeconds);
      await c.rawBefore?.(raw);
      const rawOne = await measureRaw(() => c.raw(raw), 1, seconds);
      const rawMany = own.url || c.oneClient ? undefined : await measureRaw(() => c.raw(raw), 32, seconds);
      if (own.url && !c.oneClient) floors.set(c.name, () => c.raw(raw));
      results.push({ call: c.name, rawOne, rawMany } as Result);
      log(`  ${c.name}: p95 ${rawOne.p95.toFixed(1)} ms`);
    }
    // The worklist's first page by hand: each kind of row in window-end order from the worklist
    // index, merged, then the page's rows and the counts per state, as the answer has them (the
    // server also tells the day's states apart and bounds them by the horizon).
    const kindRows = (
      kind: string,
    ) => `(select id, window_end, kind from visit_schedule where site_id = $1 and active
      and sequence is not null and kind = '${kind}' order by window_end, id limit ${pageSize})`;
    // With the answer's counts per state, each exact up to the lists' bound, as the server gives them.
    const asOfDay = new Date().toISOString().slice(0, 10);
    // Open rows' window ends are bounded by the widest window a plan allows, so each count reads a
    // range of the worklist index, as the server's do.
    const widest = `(select coalesce(max(allowed_days_before + allowed_days_after), 0) from studyplan_schedule_entries)`;
    const horizon = `'${asOfDay}'::date + ${worklistHorizonDays}`;
    // Booked rows are listed when their window opens by the horizon; a booking whose day has passed
    // counts as not done (issue 43), as an open row does.
    const opensByHorizon = `(window_start is null or window_start <= ${horizon})`;
    const passed = `(kind = 'booked' and visit_date < '${asOfDay}' and window_start is not null)`;
    const notDone = `(kind = 'open' or ${passed})`;
    const stateRows: Record<string, string> = {
      overdue: `${notDone} and window_end < '${asOfDay}'`,
      due: `${notDone} and window_start <= '${asOfDay}' and window_end between '${asOfDay}' and '${asOfDay}'::date + ${widest}`,
      upcoming: `${notDone} and window_start > '${asOfDay}' and window_start <= ${horizon}
        and window_end > '${asOfDay}' and window_end <= ${horizon} + ${widest}`,
      booked: `kind = 'booked' and not ${passed} and ${opensByHorizon}`,
      unscheduled: "kind = 'unscheduled'",
      missed: "kind = 'missed'",
      "deviations-open": "deviation_open",
    };
    /** The answer's counts per state, each exact up to the lists' bound, within `where`. */
    const countsSql = (where: string) =>
      `select ${Object.entries(stateRows)
        .map(
          ([
            state,
            rows,
          ]) => `(select count(*) from (select 1 from visit_schedule where site_id = $1 and active
          and sequence is not null and ${rows} and ${where} limit ${countBound + 1}) c) as "${state}"`,
        )
        .join(", ")}`;
    /** A page's rows as the answer gives them: the window, the patient, study, visit and recorded visit. */
    const rowsSql = (
      page: string,
    ) => `select vs.study_patient_id || '-' || vs.visit_id as "rowId", p.id, p.uuid,
        p.barcode, p.last_name || ' ' || p.first_name as name, sp.screen_nr, s.id, s.uuid, s.working_name, v.id,
        v.name, v.visit_type_id, vs.expected_date::text, vs.window_start::text, vs.window_end::text, w.kind,
        vs.booked_outside_window, pv.id, pv.uuid, vs.visit_date::text, vs.visit_status,
        vs.kind = 'booked' and vs.visit_date < '${asOfDay}' as booking_passed, d.uuid, d.status, d.days_outside
      from (${page}) w join visit_schedule vs on vs.id = w.id join patients p on p.id = vs.patient_id
      join study_patients sp on sp.id = vs.study_patient_id join studies s on s.id = vs.study_id
      join visits v on v.id = vs.visit_id left join patient_visits pv on pv.id = vs.patient_visit_id
      left join lateral (select d.uuid, d.status, d.days_outside from protocol_deviations d
        where d.study_patient_id = vs.study_patient_id and d.visit_id = vs.visit_id and d.source = 'AUTOMATIC'
        order by (d.status = 'OPEN') desc, d.id desc limit 1) d on true
      order by w.window_end nulls last, w.id`;
    const worklistSql = [
      rowsSql(`select id, window_end, kind from (${["open", "booked", "unscheduled"].map(kindRows).join(" union all ")}) w
        order by window_end nulls last, id limit ${pageSize}`),
      countsSql("true"),
    ];
    // Searched by one patient's barcode (a word that matches few rows): that patient's open rows. As
    // the server does, the matching patients are found first, so the planner knows they are few.
    const searchedWhere = "patient_id = any($2::int[])";
    const searchedSql = [
      rowsSql(`select id, window_end, kind from visit_schedule where ${searchedWhere} and site_id = $1 and active
        and sequence is not null and kind not in ('done', 'not-applicable')
        order by window_end nulls last, id limit ${pageSize}`),
      countsSql(searchedWhere),
    ];
    const matching = async (query: Raw["query"], word: string) =>
      (
        await query(
          "select coalesce(array_agg(id), '{}') as ids from patients where search_text like '%' || search_fold($1) || '%'",
          [word],
        )
      )[0].ids;
    const [searched] =
      scheduled === null
        ? [undefined]
        : await raw.query(
            `select p.barcode from visit_schedule vs join patients p on p.id = vs.patient_id
             where vs.site_id = $1 and vs.kind not in ('done', 'not-applicable') order by vs.id limit 1`,
            [fixtures.siteId],
          );
    // PGlite's folder has one user at a time: its floor is done. PostgreSQL's is measured again beside
    // the server's 32 clients, so its pool stays open.
    const closeLater: (() => Promise<unknown> | undefined)[] = [];
    if (own.url) closeLater.push(() => raw.close());
    else await raw.close();

    let draw: DrawFigures | null = null;
    let pausedMs: number | null = null;
    server = startServer(own.url, own.dataDir);
    try {
      await waitForServer();
      const signIn = await fetch(`${base}/api/auth`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: demoAdmin.email, password: demoAdmin.password }),
      });
      if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status}`);
      const session = ((await signIn.json()) as { data: { accessToken: string; csrfToken: string } }).data;
      const auth = { authorization: `Bearer ${session.accessToken}` };
      const write = { ...auth, "x-csrf-token": session.csrfToken };
      const httpCases: Case[] = cases(fixtures, auth, write).filter(chosen);

      // WORKLIST: GET /api/worklist (issue 12) once the server has it; its floor is measured here.
      const today = new Date().toISOString().slice(0, 10);
      const worklistPath = `/api/worklist?siteId=${fixtures.siteId}&asOf=${today}&page=1&pagesize=${pageSize}`;
      const hasWorklist =
        scheduled !== null &&
        chosen({ name: "worklist" }) &&
        (await fetch(base + worklistPath, { headers: auth })).status === 200;
      if (hasWorklist) {
        const worklistCases = [
          {
            call: "worklist of the site, page 1",
            path: worklistPath,
            sql: worklistSql,
            params: async () => [fixtures.siteId],
          },
          ...(searched
            ? [
                {
                  call: "worklist searched by a barcode",
                  path: `${worklistPath}&search=${encodeURIComponent(String(searched.barcode))}`,
                  sql: searchedSql,
                  params: async (query: Raw["query"]) => [
                    fixtures.siteId,
                    await matching(query, String(searched.barcode)),
                  ],
                },
              ]
            : []),
        ];
        // PGlite's folder is the server's now: there the worklist has no floor.
        const floor = own.url ? await openRaw(own.url, own.dataDir) : null;
        // Before the visit summary (last when it is not run), in the table as in the run.
        const summaryAt = results.findIndex((r) => r.call.startsWith("visit summary"));
        const at = summaryAt < 0 ? results.length : summaryAt;
        worklistCases.forEach((c, i) => {
          results.splice(at + i, 0, { call: c.call } as Result);
          httpCases.splice(at + i, 0, {
            name: c.call,
            http: { method: "GET", path: c.path, headers: auth },
            raw: async () => {},
          });
        });
        for (const c of worklistCases) {
          if (!floor) break;
          const result = results.find((r) => r.call === c.call) as Result;
          const run = async () => {
            const params = await c.params(floor.query);
            return Promise.all(c.sql.map((text) => floor.query(text, params)));
          };
          await measureRaw(run, warmClients, warmSeconds);
          result.rawOne = await measureRaw(run, 1, seconds);
          floors.set(c.call, run);
        }
        closeLater.push(() => floor?.close());
      }

      log(`Trialdesk over HTTP (${seconds} s each, 1 and 32 clients):`);
      for (const c of httpCases) {
        const result = results.find((r) => r.call === c.name) as Result;
        if (c.http.method === "GET") result.bytes = await wireBytes(base, c.http.path, c.http.headers ?? {});
        await c.before?.(base);
        await measureHttp(base, c.http, c.oneClient ? 1 : warmClients, warmSeconds);
        await idle();
        await c.before?.(base);
        result.one = await measureHttp(base, c.http, 1, seconds);
        await idle();
        const floor = floors.get(c.name);
        if (c.oneClient) {
          // Measured with one client only (a statement): no 32-client figure.
        } else if (!floor) result.many = await measureHttp(base, c.http, 32, seconds);
        else {
          // Beside its floor, in turns (each side first every other round), medians of `rounds`: the
          // machine's speed drifts over a run, and measured minutes apart the ratio took the drift.
          const rounds: { many: Figures; rawMany: Figures }[] = [];
          for (let i = 0; i < floorRounds; i++) {
            const server = () => measureHttp(base, c.http, 32, seconds);
            const sql = () => measureRaw(floor, 32, seconds);
            const [first, second] = i % 2 === 0 ? [server, sql] : [sql, server];
            const a = await first();
            await idle();
            const b = await second();
            await idle();
            rounds.push(i % 2 === 0 ? { many: a, rawMany: b } : { many: b, rawMany: a });
          }
          result.many = medianRun(rounds.map((r) => r.many));
          result.rawMany = medianRun(rounds.map((r) => r.rawMany));
        }
        await idle();
        log(`  ${c.name}: p95 ${result.one.p95.toFixed(1)} ms`);
      }
      // The visit summary as a coordinator opens it: after a while with no calls (pg-pool closed
      // connections idle for 10 s before decision 190).
      const summary = httpCases.find((c) => c.name.startsWith("visit summary"));
      if (summary) {
        pausedMs = await afterPause(base, summary.http.path, summary.http.headers ?? {}, pauseMs);
        log(
          `  visit summary after ${pauseMs / 1000} s without calls: ${pausedMs.toFixed(1)} ms (median of 3)`,
        );
      }
      if (webDist) {
        draw = await drawSummary(base, fixtures.summaryStudyUuid, fixtures.siteCode);
        log(`  visit summary in Chromium: ${drawText(draw)}`);
      }
    } finally {
      const running = server;
      running.kill("SIGTERM");
      await new Promise((resolve) => running.once("exit", resolve));
      server = null;
      for (const close of closeLater) await close();
    }
    return { size, kind, results, draw, pausedMs };
  } finally {
    process.off("SIGINT", stop).off("SIGTERM", stop);
    if (process.env.BENCH_KEEP) log(`Kept the bench database: ${own.url ?? own.dataDir}`);
    else await own.drop();
  }
}

const fmt = (n: number | undefined, digits = 1) =>
  n === undefined || Number.isNaN(n) ? "–" : n.toFixed(digits);
const ratio = (a: number | undefined, b: number | undefined) => (a && b ? `${(a / b).toFixed(1)}×` : "–");

const runs: Awaited<ReturnType<typeof runSize>>[] = [];
for (const size of sizes) runs.push(await runSize(size));

let failed = false;
for (const run of runs) {
  console.log(
    `\nTrialdesk bench: ${run.size.patients.toLocaleString("en-US")} patients on ${run.kind}` +
      (run.kind === "PGlite"
        ? " (the embedded database, at a size it handles; PostgreSQL: BENCH_DATABASE_URL)"
        : "") +
      ` — ${seconds} s per figure; p95 in ms; req/s; "÷ SQL" = Trialdesk / hand-written SQL`,
  );
  console.table(
    run.results.map((r) => {
      // The targets: 25 ms p95 for every list, search, detail and save (a sign-in is none: its password
      // check alone takes ~20 ms); 150 ms for the visit summary; 100 ms for a statement, a batch write of
      // a day's lines (~80 at 100,000 patients: 1.2× its floor, decision 246); no errors anywhere.
      const target =
        r.call === "sign-in"
          ? Number.POSITIVE_INFINITY
          : r.call.startsWith("visit summary")
            ? 150
            : r.call.startsWith("create a statement")
              ? 100
              : 25;
      if (r.one && (r.one.p95 >= target || r.one.errors > 0 || (r.many?.errors ?? 0) > 0)) failed = true;
      return {
        call: r.call,
        "1 client p50": fmt(r.one?.p50),
        "1 client p95": fmt(r.one?.p95),
        "SQL p95": fmt(r.rawOne?.p95),
        "p95 ÷ SQL": ratio(r.one?.p95, r.rawOne?.p95),
        "32 clients p50": fmt(r.many?.p50),
        "32 clients p95": fmt(r.many?.p95),
        "req/s": fmt(r.many?.perSecond, 0),
        "SQL req/s": fmt(r.rawMany?.perSecond, 0),
        "req/s ÷ SQL": r.many && r.rawMany ? (r.many.perSecond / r.rawMany.perSecond).toFixed(2) : "–",
        errors: (r.one?.errors ?? 0) + (r.many?.errors ?? 0),
        "KB wire/json": r.bytes ? `${fmt(r.bytes.wire / 1024, 0)}/${fmt(r.bytes.json / 1024, 0)}` : "",
      };
    }),
  );
  // A call meets its 32-client target at 0.4 of its hand-written floor's requests per second; below
  // that it is a finding to explain (docs/benchmark.md), not a failure and not a reason to reach into
  // a library's internals.
  const findings = run.results.filter(
    (r) => r.many && r.rawMany && r.many.perSecond / r.rawMany.perSecond < floorShareTarget,
  );
  for (const r of findings)
    console.log(
      `Finding: ${r.call} reaches ${((r.many as Figures).perSecond / (r.rawMany as Figures).perSecond).toFixed(2)} of its floor with 32 clients (target ${floorShareTarget})`,
    );
}
for (const run of runs) {
  if (run.pausedMs !== null)
    console.log(
      `Visit summary at ${run.size.patients.toLocaleString("en-US")} patients after ${pauseMs / 1000} s without calls: ${run.pausedMs.toFixed(1)} ms to its last byte (median of 3)`,
    );
  if (run.draw)
    console.log(
      `Visit summary drawn in Chromium at ${run.size.patients.toLocaleString("en-US")} patients (target 500 ms): ${drawText(run.draw)}`,
    );
}
if (runs.length > 1) {
  const [small, large] = [runs[0], runs.at(-1) as (typeof runs)[number]];
  console.log(
    `\nGrowth from ${small.size.patients.toLocaleString("en-US")} to ${large.size.patients.toLocaleString("en-US")} patients (1 client p95):`,
  );
  console.table(
    large.results.map((r, i) => ({
      call: r.call,
      [`p95 at ${small.size.patients / 1000}k`]: fmt(small.results[i]?.one?.p95),
      [`p95 at ${large.size.patients / 1000}k`]: fmt(r.one?.p95),
      growth: ratio(r.one?.p95, small.results[i]?.one?.p95),
    })),
  );
}
const resultsDir = path.join(here, "results");
mkdirSync(resultsDir, { recursive: true });
const file = path.join(
  resultsDir,
  `bench-${runs[0]?.kind.toLowerCase()}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`,
);
writeFileSync(
  file,
  `${JSON.stringify({ at: new Date().toISOString(), seconds, cpus: os.cpus().length, runs }, null, 2)}\n`,
);
console.log(
  `\nWritten to ${path.relative(process.cwd(), file)}${failed ? "; some calls missed their p95 target (25 ms; the summary 150 ms; a statement 100 ms) or had errors" : ""}`,
);
process.exit(failed ? 1 : 0);
