import path from "node:path";
import { fileURLToPath } from "node:url";

/** Server configuration from the environment, with the defaults of DESIGN §3 (documented in README). */
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
  /** Failed sign-ins allowed per account per 15 minutes; an address gets four times as many. */
  loginRateLimit: number;
  webDist: string;
  /** Behind a reverse proxy: take the client address and https from X-Forwarded-* headers. */
  trustProxy: boolean;
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

/** memory:// is PGlite's in-memory database, not a folder; path.resolve would turn it into "./memory:". */
const dataDirOf = (value: string) => (value.startsWith("memory://") ? value : path.resolve(value));

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const seed = str(env, "SEED") ?? "auto";
  if (seed !== "auto" && seed !== "always" && seed !== "never")
    throw new Error("SEED must be auto, always or never");
  return {
    port: int(env, "PORT", 3000),
    host: str(env, "HOST") ?? "0.0.0.0",
    databaseUrl: str(env, "DATABASE_URL"),
    dataDir: dataDirOf(str(env, "DATA_DIR") ?? "./data"),
    tokenSecret: str(env, "TOKEN_SECRET"),
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
    trustProxy: str(env, "TRUST_PROXY") === "true",
    webDist: path.resolve(str(env, "WEB_DIST") ?? path.join(here, "../../web/dist")),
  };
}
