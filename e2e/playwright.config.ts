import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { testLaunchOptions } from "./chromium";

/**
 * The end-to-end suite drives the built app in Debian's Chromium against fresh embedded databases:
 * one server with the normal configuration, and one with a 5-second inactivity timeout for the
 * countdown test.
 */
const root = join(import.meta.dirname, "..");
const mainPort = Number(process.env.E2E_PORT ?? 3100);
const shortPort = mainPort + 1;

function server(port: number, env: Record<string, string> = {}) {
  return {
    command: "node --import tsx packages/server/src/main.ts",
    cwd: root,
    url: `http://127.0.0.1:${port}/config.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      // A fresh in-memory database per run: nothing to clean up afterwards.
      DATA_DIR: "memory://",
      LOG_LEVEL: "warn",
      // Parallel tests play many people with the three demo accounts: a person's cap on searches and
      // exports in flight (4) would count them as one. The cap itself is the server tests' to prove
      // (expensive-calls.test.ts), as the bench raises it for its 32 clients of one account.
      EXPENSIVE_CALLS_PER_USER: "1000",
      ...env,
    },
  };
}

export const shortTimeoutURL = `http://127.0.0.1:${shortPort}`;

export default defineConfig({
  testDir: "tests",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  // Three at once on two cores: each test is one chain of waits (runner, browser, server, database), and
  // two chains left a sixth of the machine idle (decision 265).
  workers: 3,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${mainPort}`,
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: testLaunchOptions,
  },
  webServer: [server(mainPort), server(shortPort, { INACTIVITY_TIMEOUT_SECONDS: "5" })],
});
