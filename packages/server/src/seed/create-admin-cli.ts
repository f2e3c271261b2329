import { loadConfig } from "../config";
import { type Database, openDatabase } from "../db/client";
import { exitOnStartFailure } from "../db/data-dir-lock";
import { adminPasswordProblem } from "../startup";
import { upsertAdmin } from "./factories";

/**
 * npm run create-admin -- EMAIL PASSWORD [FIRST LAST] (or ADMIN_EMAIL / ADMIN_PASSWORD): creates an
 * administrator with every site, or resets the password of that account (an explicit operator act,
 * unlike ADMIN_PASSWORD at start-up, which is applied only to create the account). Refused (exit 1)
 * while a server holds the embedded data folder.
 */
const [email = process.env.ADMIN_EMAIL, password = process.env.ADMIN_PASSWORD, firstName, lastName] =
  process.argv.slice(2);
if (!email || !password) {
  console.error(
    "Usage: npm run create-admin -- EMAIL PASSWORD [FIRST_NAME LAST_NAME]  (or set ADMIN_EMAIL and ADMIN_PASSWORD)",
  );
  process.exit(2);
}
const problem = adminPasswordProblem(password);
if (problem) {
  console.error(problem);
  process.exit(2);
}
const config = loadConfig();
let database: Database | null = null;
try {
  database = await openDatabase(config);
  await database.migrate();
  // A reset ends that account's sessions and is audited (upsertAdmin).
  const result = await upsertAdmin(database.db, { email, password, firstName, lastName });
  console.log(
    result.created ? `Administrator ${email} created.` : `Administrator ${email} updated (password reset).`,
  );
  await database.close();
} catch (error) {
  await database?.close().catch(() => {});
  exitOnStartFailure(error);
}
