import type { AppConfig } from "@trialdesk/domain";
import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Deps } from "./deps";
import { studies } from "./resources/studies/studies.table";
import { demoStudyUuid } from "./seed/demo-constants";

/**
 * SUMMARY_STUDY_UUID, else the demo study when seeded, else the first study, else the demo study's
 * fixed std- identifier (spec §1: the tile points at one fixed study identifier).
 */
export async function summaryStudyUuid({ db, config }: Pick<Deps, "db" | "config">): Promise<string> {
  if (config.summaryStudyUuid) return config.summaryStudyUuid;
  const [demo] = await db.select({ uuid: studies.uuid }).from(studies).where(eq(studies.uuid, demoStudyUuid));
  if (demo) return demo.uuid;
  const [first] = await db.select({ uuid: studies.uuid }).from(studies).orderBy(asc(studies.id)).limit(1);
  return first?.uuid ?? demoStudyUuid;
}

/** /config.json's answer, for /api/docs. */
export const appConfigSchema: z.ZodType<AppConfig> = z.object({
  apiBaseUrl: z.string(),
  defaultPageSize: z.number(),
  inactivityTimeoutSeconds: z.number(),
  minimumPatientAge: z.number(),
  maximumPatientAge: z.number(),
  summaryStudyUuid: z.string(),
});

/** GET /config.json (design §3): plain JSON, no envelope, read by the web app before anything else. */
export async function appConfig(deps: Pick<Deps, "db" | "config">): Promise<AppConfig> {
  const { config } = deps;
  return {
    apiBaseUrl: "/api",
    defaultPageSize: config.defaultPageSize,
    inactivityTimeoutSeconds: config.inactivityTimeoutSeconds,
    minimumPatientAge: config.minimumPatientAge,
    maximumPatientAge: config.maximumPatientAge,
    summaryStudyUuid: await summaryStudyUuid(deps),
  };
}
