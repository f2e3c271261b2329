import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";
import { startApp, type TestApp } from "./helpers";

/** The address the server believes a request came from, seen through a route that answers request.ip. */
async function clientAddress(t: TestApp, forwardedFor: string, peer = "127.0.0.1") {
  const res = await t.request<string>({
    method: "GET",
    url: "/test/ip",
    headers: { "x-forwarded-for": forwardedFor },
    remoteAddress: peer,
  });
  return res.body as unknown as string;
}

const ipRoute = (app: TestApp["app"]) => app.get("/test/ip", async (request) => request.ip);

describe("TRUST_PROXY", () => {
  it("takes a hop count or proxy addresses, and refuses trusting everyone", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.5, 10.0.1.0/24" }).trustProxy).toEqual([
      "10.0.0.5",
      "10.0.1.0/24",
    ]);
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: "anything" })).toThrow(/TRUST_PROXY/);
  });

  describe("unset", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp("pglite", { routes: ipRoute });
    });
    afterAll(() => t.close());
    it("ignores X-Forwarded-For: a client cannot choose its own address", async () => {
      expect(await clientAddress(t, "203.0.113.7")).toBe("127.0.0.1");
    });
  });

  describe("a hop count", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp("pglite", { config: { trustProxy: 1 }, routes: ipRoute });
    });
    afterAll(() => t.close());
    it("believes the nearest proxy only, not what the client wrote before it", async () => {
      expect(await clientAddress(t, "203.0.113.7")).toBe("203.0.113.7");
      expect(await clientAddress(t, "6.6.6.6, 203.0.113.7")).toBe("203.0.113.7");
    });
  });

  describe("proxy addresses", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp("pglite", { config: { trustProxy: ["10.0.0.5"] }, routes: ipRoute });
    });
    afterAll(() => t.close());
    it("believes X-Forwarded-For from the proxy only", async () => {
      expect(await clientAddress(t, "203.0.113.7", "10.0.0.5")).toBe("203.0.113.7");
      expect(await clientAddress(t, "203.0.113.7", "10.9.9.9")).toBe("10.9.9.9");
    });
  });
});
