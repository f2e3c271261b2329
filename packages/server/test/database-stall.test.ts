import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "../src/db/client";
import { postgresCopy, type Session, startApp, type TestApp } from "./helpers";

/** A TCP proxy in front of PostgreSQL that can stop forwarding: the server seems to hang, silently. */
async function freezableProxy(target: URL) {
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      sockets.add(from);
      from.on("data", (chunk) => {
        if (!frozen) to.write(chunk);
      });
      from.on("error", () => to.destroy());
      from.on("close", () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)("a PostgreSQL that stops answering", () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof freezableProxy>>;
  let session: Session;
  let copy: Awaited<ReturnType<typeof postgresCopy>> | undefined;

  beforeAll(async () => {
    copy = await postgresCopy();
    const direct = new URL(copy.url);
    proxy = await freezableProxy(direct);
    const through = new URL(direct);
    through.hostname = "127.0.0.1";
    through.port = String(proxy.port);
    // The default timeouts, as npm start uses them.
    t = await startApp("postgres", { database: openPostgres(through.toString(), 4) });
    session = await t.signedInUser({ isAdmin: true });
  });
  afterAll(async () => {
    await t?.close();
    await t?.database.close();
    await proxy?.close();
    await copy?.drop();
  });

  const timed = async <T>(call: () => Promise<T>) => {
    const started = Date.now();
    const result = await call();
    return { result, ms: Date.now() - started };
  };
  const list = () => t.request({ method: "GET", url: "/api/partners", session });
  const health = () => t.request({ method: "GET", url: "/api/health" });

  it("answers 503 in the envelope within 15 s, health 503 within 2 s, and recovers without a restart", async () => {
    expect((await list()).status).toBe(200);
    expect((await health()).status).toBe(200);

    proxy.freeze();
    const [stalledList, stalledHealth, stalledWrite] = await Promise.all([
      timed(list),
      timed(health),
      timed(() =>
        t.request({
          method: "POST",
          url: "/api/therapy-categories",
          session,
          payload: { name: "Frozen category", code: "FRZ" },
        }),
      ),
    ]);
    expect(stalledHealth.result.status).toBe(503);
    expect(stalledHealth.ms).toBeLessThan(3000);
    for (const call of [stalledList, stalledWrite]) {
      expect(call.result.status).toBe(503);
      expect(call.result.body.header).toMatchObject({ result: "error", errorCode: "SERVICE_UNAVAILABLE" });
      expect(call.ms).toBeLessThan(15_000);
    }

    proxy.thaw();
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await list()).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
    expect((await health()).status).toBe(200);
  }, 60_000);
});

describe.skipIf(!adminUrl)("a PostgreSQL that refuses the connection (issue 46)", () => {
  // Built when the file is collected, also when the suite is skipped (no PostgreSQL): any URL will do then.
  const refusing = (change: (url: URL) => void) => {
    const url = new URL(adminUrl ?? "postgres://postgres@127.0.0.1:5432/postgres");
    change(url);
    return url.toString();
  };
  it.each([
    [
      "nothing listens on its port",
      refusing((url) => Object.assign(url, { hostname: "127.0.0.1", port: "1" })),
    ],
    [
      "its database does not exist",
      refusing((url) => Object.assign(url, { pathname: "/trialdesk_no_such_database" })),
    ],
    [
      "its role does not exist",
      refusing((url) => Object.assign(url, { username: "trialdesk_no_such_role" })),
    ],
  ])("answers 503 in the envelope, not 500, when %s", async (_, url) => {
    const database = openPostgres(url, 2);
    const t = await startApp("postgres", { database });
    try {
      const signIn = await t.request({
        method: "POST",
        url: "/api/auth",
        payload: { username: "anyone@example.com", password: "Tidy-Heron-417" },
      });
      expect(signIn.status).toBe(503);
      expect(signIn.body.header).toMatchObject({ result: "error", errorCode: "SERVICE_UNAVAILABLE" });
    } finally {
      await t.close();
      await database.close();
    }
  });
});
