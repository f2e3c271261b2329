import path from "node:path";
import { fileURLToPath } from "node:url";

/** Server configuration from the environment, with the defaults of design §3 (documented in README). */
export type Config = {
  port: number;
  host: string;
  /** Set: a real PostgreSQL through pg. Unset: embedded PGlite under dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  /** Unset: a secret generated once and kept in the database, so restarts keep sessions. */
  tokenSecret: string | null;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  defaultPageSize: number;
  inactivityTimeoutSeconds: number;
  minimumPatientAge: number;
  maximumPatientAge: number;
  summaryStudyUuid: string | null;
  logLevel: string;
  seed: "auto" | "always" | "never";
  adminEmail: string | null;
  adminPassword: string | null;
  /**
   * Failed sign-ins allowed per account per 15 minutes; past four times as many from one address,
   * that address's wrong passwords take turns, one a second (a right one gets through at once, so one
   * office is not locked out; decision 212).
   */
  loginRateLimit: number;
  webDist: string;
  /**
   * Behind a reverse proxy: the number of proxies in front (a hop count) or their addresses/CIDRs,
   * whose X-Forwarded-* headers are believed. Never "every X-Forwarded-For" (that lets anyone choose
   * their own address). false: the socket's address.
   */
  trustProxy: false | number | string[];
  /** PostgreSQL: connecting or waiting for a pooled connection gives up after this long. */
  databaseConnectTimeoutMs: number;
  /** PostgreSQL: a statement (and a query whose answer does not come) gives up after this long. */
  databaseStatementTimeoutMs: number;
  /**
   * Expensive calls (searches, the worklist, exports, summaries: http/expensive-calls.ts) one account
   * may have in flight at once; beyond them 429 (issue 46, point 14).
   */
  expensiveCallsPerUser: number;
  /**
   * Exports and visit summaries running at once on the database, whoever asks: fewer than a server's
   * 10 pooled connections, so other calls always find one. Beyond them a call waits its turn.
   */
  exportsAtOnce: number;
  /** How long an export or summary waits for its turn before it answers 503. */
  exportQueueWaitMs: number;
  /**
   * Rows a CSV export reads (or, the visit summary's, decodes) at a time. Not a setting: tests make
   * it small, so that a few rows cross its batch boundaries.
   */
  exportBatchRows: number;
};

const here = path.dirname(fileURLToPath(import.meta.url));

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}`);
  return value;
}

function str(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw === "" ? null : raw;
}

/** TRUST_PROXY: unset/false, a hop count, or a comma-separated list of proxy addresses or CIDRs. */
function trustProxyOf(raw: string | null): Config["trustProxy"] {
  if (raw === null || raw === "false" || raw === "0") return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const addresses = raw
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  if (raw === "true" || addresses.length === 0 || addresses.some((a) => !/^[0-9a-fA-F.:/]+$/.test(a)))
    throw new Error(
      "TRUST_PROXY must be the number of proxies in front of the server or their addresses (e.g. 1 or 10.0.0.5,10.0.1.0/24)",
    );
  return addresses;
}

/** memory:// is PGlite's in-memory database, not a folder; path.resolve would turn it into "./memory:". */
const dataDirOf = (value: string) => (value.startsWith("memory://") ? value : path.resolve(value));

/**
 * A given TOKEN_SECRET signs every access token: one shorter than 32 bytes (HS256's key size) can be
 * guessed, so the server refuses to start with it (issue 46) rather than run weakly.
 */
export const minimumTokenSecretBytes = 32;
function tokenSecretOf(value: string | null): string | null {
  if (value !== null && Buffer.byteLength(value, "utf8") < minimumTokenSecretBytes)
    throw new Error(`TOKEN_SECRET must be at least ${minimumTokenSecretBytes} bytes long`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const seed = str(env, "SEED") ?? "auto";
  if (seed !== "auto" && seed !== "always" && seed !== "never")
    throw new Error("SEED must be auto, always or never");
  const databaseUrl = str(env, "DATABASE_URL");
  return {
    port: int(env, "PORT", 3000),
    // The embedded demo has accounts with known passwords: only this machine reaches it by default.
    host: str(env, "HOST") ?? (databaseUrl ? "0.0.0.0" : "127.0.0.1"),
    databaseUrl,
    dataDir: dataDirOf(str(env, "DATA_DIR") ?? "./data"),
    tokenSecret: tokenSecretOf(str(env, "TOKEN_SECRET")),
    accessTokenTtlSeconds: int(env, "ACCESS_TOKEN_TTL_SECONDS", 900, 1),
    refreshTokenTtlDays: int(env, "REFRESH_TOKEN_TTL_DAYS", 14, 1),
    defaultPageSize: int(env, "DEFAULT_PAGE_SIZE", 20, 1),
    inactivityTimeoutSeconds: int(env, "INACTIVITY_TIMEOUT_SECONDS", 900, 1),
    minimumPatientAge: int(env, "MINIMUM_PATIENT_AGE", 18),
    maximumPatientAge: int(env, "MAXIMUM_PATIENT_AGE", 100),
    summaryStudyUuid: str(env, "SUMMARY_STUDY_UUID"),
    logLevel: str(env, "LOG_LEVEL") ?? "info",
    seed,
    adminEmail: str(env, "ADMIN_EMAIL"),
    adminPassword: str(env, "ADMIN_PASSWORD"),
    loginRateLimit: int(env, "LOGIN_RATE_LIMIT", 5, 1),
    trustProxy: trustProxyOf(str(env, "TRUST_PROXY")),
    databaseConnectTimeoutMs: int(env, "DATABASE_CONNECT_TIMEOUT_MS", 5000, 100),
    databaseStatementTimeoutMs: int(env, "DATABASE_STATEMENT_TIMEOUT_MS", 9000, 100),
    expensiveCallsPerUser: int(env, "EXPENSIVE_CALLS_PER_USER", 4, 1),
    exportsAtOnce: int(env, "EXPORTS_AT_ONCE", 4, 1),
    exportQueueWaitMs: int(env, "EXPORT_QUEUE_WAIT_MS", 5000),
    exportBatchRows: 500,
    webDist: path.resolve(str(env, "WEB_DIST") ?? path.join(here, "../../web/dist")),
  };
}

/**
 * Fastify's trustProxy from TRUST_PROXY: the proxies' addresses as they are; a hop count trusts the
 * nearest that many peers (Fastify itself trusts nobody for a bare number), so it is for a server
 * that only the proxy can reach.
 */
export function trustProxyOption(
  value: Config["trustProxy"],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === "number") return (_address, hop) => hop < value;
  return value;
}
