import type { AppConfig } from "@trialdesk/domain";

/**
 * The configuration read once at start-up from /config.json (spec §7). The session start-up sets it
 * before anything renders; screens read it with getConfig().
 */
const fallback: AppConfig = {
  apiBaseUrl: "/api",
  defaultPageSize: 20,
  inactivityTimeoutSeconds: 900,
  minimumPatientAge: 18,
  maximumPatientAge: 100,
  summaryStudyUuid: "",
};

let config: AppConfig = fallback;

export async function loadConfig(): Promise<AppConfig> {
  const response = await fetch("/config.json", { credentials: "include" });
  if (!response.ok) throw new Error(`Failed to get data`);
  config = { ...fallback, ...((await response.json()) as Partial<AppConfig>) };
  return config;
}

export function getConfig(): AppConfig {
  return config;
}
