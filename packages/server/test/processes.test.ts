import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite } from "../src/db/client";
import { lockFileName } from "../src/db/data-dir-lock";
import { databaseKinds, migratedDump } from "./helpers";

/**
 * The real commands as an operator runs them: `npm start`, `npm run create-admin`, `npm run seed`
 * on one embedded data folder, and signals to `npm start`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const started: ChildProcess[] = [];
/**
 * Every command here runs on an embedded (PGlite) data folder: a run that tests PostgreSQL only (the
 * server project when TEST_DATABASE_URL is set, decision 260) leaves them to the run on PGlite.
 */
const embeddedTested = databaseKinds.includes("pglite");
/**
 * The environment as an operator's: without the test runner's NODE_ENV=test, with which `npm start`'s
 * build wrote a development build of the web app into packages/web/dist.
 */
const { NODE_ENV: _testRunner, ...operatorEnv } = process.env;

type Server = { child: ChildProcess; port: number; output: () => string; exited: Promise<number | null> };

function launch(
  command: string,
  args: string[],
  env: Record<string, string>,
): Server & { ready: Promise<void> } {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...operatorEnv, LOG_LEVEL: "warn", SEED: "never", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  const server = { child, port: 0, output: () => output } as Server & { ready: Promise<void> };
  server.exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  server.ready = new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/Trialdesk is running at http:\/\/localhost:(\d+)/);
      if (match && !server.port) {
        server.port = Number(match[1]);
        resolve();
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.on("exit", (code) => reject(new Error(`exited ${code} before listening:\n${output}`)));
  });
  server.ready.catch(() => {}); // a server expected to fail is awaited through `exited` instead
  return server;
}

/**
 * A data folder as a server leaves it after its first start: the suite's migrated database. Started on
 * an empty folder, each server would make the database and migrate it first (~5 s of a core each),
 * which these tests are not about (startup.test.ts is).
 */
async function migratedDataDir(prefix: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  await (await openPglite({ dataDir: dir, loadDataDir: await migratedDump() })).close();
  return dir;
}

/** Runs a command to its end: exit code and what it printed. */
function run(script: string, args: string[], env: Record<string, string>) {
  const result = spawnSync("npm", ["run", "--silent", script, "--", ...args], {
    cwd: root,
    env: { ...operatorEnv, LOG_LEVEL: "warn", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pid a data folder's lock names (its first line). */
const lockOwner = (dataDir: string) =>
  Number(readFileSync(path.join(dataDir, lockFileName), "utf8").split("\n")[0]);

/** The pid of a process that has ended: a lock naming it is stale. */
const deadPid = () =>
  Number(
    spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" })
      .stdout,
  );

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.pid) child.kill("SIGKILL");
});

describe.runIf(embeddedTested)("one process per embedded data folder", () => {
  let dataDir = "";
  beforeAll(async () => {
    dataDir = await migratedDataDir("trialdesk-lock-");
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("refuses a second server, create-admin and seed while a server holds it; frees it on exit", async () => {
    const { command, args } = serverCommand();
    const first = launch(command, args, { DATA_DIR: dataDir });
    await first.ready;
    // The lock names the live server process.
    expect(alive(lockOwner(dataDir))).toBe(true);

    const second = launch(command, args, { DATA_DIR: dataDir });
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toContain(`The data folder ${dataDir} is in use`);

    const admin = run("create-admin", ["late@example.com", "Tidy-Heron-417"], { DATA_DIR: dataDir });
    expect(admin.code).not.toBe(0);
    expect(admin.output).toContain(`The data folder ${dataDir} is in use`);
    expect(admin.output).not.toContain("created");
    const seed = run("seed", [], { DATA_DIR: dataDir });
    expect(seed.code).not.toBe(0);
    expect(seed.output).toContain(`The data folder ${dataDir} is in use`);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dataDir, lockFileName))).toBe(false);
    const after = run("create-admin", ["late@example.com", "Tidy-Heron-417"], { DATA_DIR: dataDir });
    expect(after.output).toContain("Administrator late@example.com created.");
    expect(after.code).toBe(0);
  }, 120_000);

  it("lets exactly one of several processes take over a dead owner's lock at the same moment (issue 46)", async () => {
    // Long-lived processes, each locking the folder when told, all at the same instant (each spins
    // to it on the shared clock), so that their takeovers of the stale lock overlap.
    const script = path.join(dataDir, "contender.mjs");
    writeFileSync(
      script,
      `import { lockDataDir } from ${JSON.stringify(path.join(root, "packages/server/src/db/data-dir-lock.ts"))};
      let release = null;
      process.on("message", (message) => {
        if (message.at) {
          // Asleep until just before the instant, then spinning to it: four processes spinning the
          // whole wait took a 2-core machine's CPU for seconds.
          setTimeout(() => {
            while (performance.timeOrigin + performance.now() < message.at) {}
            try {
              release = lockDataDir(message.dir);
              process.send({ won: true });
            } catch (error) {
              process.send({ won: false, message: error.message });
            }
          }, Math.max(0, message.at - Date.now() - 5));
        } else if (message.release) {
          release?.();
          release = null;
          process.send({ released: true });
        } else process.exit(0);
      });
      process.send({ ready: true });`,
    );
    const contenders = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", script], {
        cwd: root,
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      started.push(child);
      return child;
    });
    const next = (child: ChildProcess) =>
      new Promise<{ won?: boolean; message?: string }>((resolve) => child.once("message", resolve));
    await Promise.all(contenders.map(next));
    const folder = mkdtempSync(path.join(os.tmpdir(), "trialdesk-race-"));
    try {
      const dead = deadPid();
      // Per round, how many took the lock and what the others were told.
      const rounds: { winners: number; refusals: string[] }[] = [];
      for (let round = 0; round < 60; round++) {
        // A lock left by a process killed with kill -9: as an older Trialdesk wrote it, or as now.
        const stale = round % 2 === 0 ? String(dead) : `${dead}\n0123456789abcdef\n`;
        writeFileSync(path.join(folder, lockFileName), stale);
        const at = Date.now() + 40;
        const answers = contenders.map(next);
        for (const child of contenders) child.send({ at, dir: folder });
        const results = await Promise.all(answers);
        rounds.push({
          winners: results.filter((result) => result.won).length,
          refusals: results.flatMap((result) => (result.won ? [] : [result.message ?? ""])),
        });
        const released = contenders.map(next);
        for (const child of contenders) child.send({ release: true });
        await Promise.all(released);
        expect(existsSync(path.join(folder, lockFileName))).toBe(false);
      }
      expect(rounds.filter((round) => round.winners !== 1)).toEqual([]);
      for (const { refusals } of rounds)
        for (const refusal of refusals) expect(refusal).toContain(`The data folder ${folder} is in use`);
      // No takeover mark or half-written lock is left behind.
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      for (const child of contenders) child.send({ exit: true });
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it("says a lock naming a live process that is no Trialdesk may be stale, and which file to delete", () => {
    // This test's own process is alive and holds no data folder: its pid is taken by something else.
    writeFileSync(path.join(dataDir, lockFileName), String(process.pid));
    const admin = run("create-admin", ["other@example.com", "Tidy-Heron-417"], { DATA_DIR: dataDir });
    expect(admin.code).not.toBe(0);
    expect(admin.output).toContain(
      `The data folder ${dataDir} is in use by another Trialdesk process (pid ${process.pid})`,
    );
    expect(admin.output).toContain(`the lock may be stale: delete ${path.join(dataDir, lockFileName)}`);
    rmSync(path.join(dataDir, lockFileName));
  }, 60_000);

  it("takes over the lock of a process that died without releasing it (kill -9)", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    writeFileSync(path.join(dataDir, lockFileName), dead.stdout);
    const admin = run("create-admin", ["other@example.com", "Tidy-Heron-417"], { DATA_DIR: dataDir });
    expect(admin.output).toContain("Administrator other@example.com created.");
    expect(admin.code).toBe(0);
  }, 60_000);
});

/**
 * A request that is in flight when the signal comes: the server has read its headers (it answered
 * `100 Continue`, so it is no idle connection that closing may drop), its body follows afterwards.
 */
function slowSignIn(port: number) {
  const body = JSON.stringify({ username: "nobody@example.com", password: "wrong-password" });
  const req = request({
    port,
    method: "POST",
    path: "/api/auth",
    headers: {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      expect: "100-continue",
    },
  });
  const accepted = new Promise<void>((resolve) => req.on("continue", () => resolve()));
  const answered = new Promise<number>((resolve, reject) => {
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
  req.flushHeaders();
  return { accepted, finish: () => req.end(body), answered };
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });

/** What `npm start` runs once the web app is built: the part of its script after `exec`. */
const serverCommand = () => {
  const script: string = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  const [command, ...args] = (script.split("&& exec ")[1] ?? "").trim().split(/\s+/);
  return { command, args };
};

describe.runIf(embeddedTested)("signals to npm start", () => {
  // SIGTERM goes through npm itself (a build each time, so only once); SIGINT to the command npm
  // execs, which is what npm forwards it to.
  const launches = {
    SIGTERM: (env: Record<string, string>) => launch("npm", ["start"], env),
    SIGINT: (env: Record<string, string>) => launch(serverCommand().command, serverCommand().args, env),
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal} stops the server within 10 s: the request in flight is answered, the port and the data folder are freed`, async () => {
      const dataDir = await migratedDataDir("trialdesk-signal-");
      try {
        const npm = launches[signal]({ DATA_DIR: dataDir, WEB_DIST: "/nonexistent-web-dist" });
        await npm.ready;
        const serverPid = lockOwner(dataDir);
        const inFlight = slowSignIn(npm.port);
        await inFlight.accepted;

        // The server is busy when the signal comes (stopped for 300 ms: a long answer, a loaded
        // machine); whatever stands between npm and it must wait for it, not kill it.
        process.kill(serverPid, "SIGSTOP");
        const signalled = Date.now();
        npm.child.kill(signal); // to npm only, as a service manager or a terminal's kill does
        await new Promise((resolve) => setTimeout(resolve, 300));
        process.kill(serverPid, "SIGCONT");
        await new Promise((resolve) => setTimeout(resolve, 200));
        inFlight.finish();
        expect(await inFlight.answered).toBe(401);
        await npm.exited;
        while (alive(serverPid) && Date.now() - signalled < 10_000)
          await new Promise((r) => setTimeout(r, 100));
        expect(alive(serverPid)).toBe(false);
        expect(Date.now() - signalled).toBeLessThan(10_000);
        expect(await portOpen(npm.port)).toBe(false);
        expect(existsSync(path.join(dataDir, lockFileName))).toBe(false);
        expect(npm.output()).toContain(`${signal}: shutting down`);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 180_000);
  }
});
