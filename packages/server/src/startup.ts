import { isDemoPassword, passwordMessages, passwordMinLength } from "@trialdesk/domain";
import { isCommonPassword } from "./auth/passwords";
import type { Config } from "./config";
import type { Database } from "./db/client";
import { ensureVisitSchedules } from "./resources/visit-schedule/visit-schedule";
import { adminExists, createAdminIfMissing } from "./seed/bootstrap-admin";
import { isEmpty, seed } from "./seed/seed";

/** Why ADMIN_PASSWORD (or a create-admin password) cannot be used, or null. */
export function adminPasswordProblem(password: string): string | null {
  if (password.length < passwordMinLength)
    return `Password is too short. It should be at least ${passwordMinLength} characters.`;
  if (isDemoPassword(password)) return passwordMessages.demo;
  if (isCommonPassword(password)) return "Password is too common. Please choose one that is harder to guess.";
  return null;
}

/**
 * What npm start does before listening: migrate, seed an empty embedded database (or always, with
 * SEED=always, never resetting an existing account), and create the ADMIN_EMAIL administrator once.
 * Answers what it did, for the start-up log.
 */
export async function prepareDatabase(
  database: Database,
  config: Pick<Config, "seed" | "adminEmail" | "adminPassword">,
): Promise<{ empty: boolean; seeded: boolean; messages: string[] }> {
  await database.migrate();
  // Visit windows stored by an older engine (or none yet, right after their migration) are rebuilt once.
  await ensureVisitSchedules(database.db);
  const embedded = database.kind === "pglite";
  const empty = await isEmpty(database.db);
  const seeded = config.seed === "always" || (config.seed === "auto" && embedded && empty);
  if (seeded) await seed(database.db, { demoAdmin: embedded });
  const messages: string[] = [];
  if (config.adminEmail && config.adminPassword) {
    const exists = await adminExists(database.db, config.adminEmail);
    const problem = exists ? null : adminPasswordProblem(config.adminPassword);
    if (problem) throw new Error(`ADMIN_PASSWORD: ${problem}`);
    const created = await createAdminIfMissing(database.db, {
      email: config.adminEmail,
      password: config.adminPassword,
    });
    messages.push(
      created
        ? `Administrator ${config.adminEmail} created (ADMIN_EMAIL).`
        : `Administrator ${config.adminEmail} already exists: ADMIN_PASSWORD was not applied (npm run create-admin resets a password).`,
    );
  }
  return { empty, seeded, messages };
}
