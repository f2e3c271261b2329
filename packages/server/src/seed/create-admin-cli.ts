import { passwordMinLength } from "@trialdesk/domain";
import { loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { upsertAdmin } from "./factories";

/**
 * npm run create-admin -- EMAIL PASSWORD [FIRST LAST] (or ADMIN_EMAIL / ADMIN_PASSWORD): creates an
 * administrator with every site, or resets the password of that account.
 */
const [email = process.env.ADMIN_EMAIL, password = process.env.ADMIN_PASSWORD, firstName, lastName] =
  process.argv.slice(2);
if (!email || !password) {
  console.error(
    "Usage: npm run create-admin -- EMAIL PASSWORD [FIRST_NAME LAST_NAME]  (or set ADMIN_EMAIL and ADMIN_PASSWORD)",
  );
  process.exit(2);
}
if (password.length < passwordMinLength) {
  console.error(`Password is too short. It should be at least ${passwordMinLength} characters.`);
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase(config);
try {
  await database.migrate();
  const result = await upsertAdmin(database.db, { email, password, firstName, lastName });
  console.log(
    result.created ? `Administrator ${email} created.` : `Administrator ${email} updated (password reset).`,
  );
} finally {
  await database.close();
}
