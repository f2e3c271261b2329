/**
 * The fast paths of the database layer (this folder), and the one switch that turns them into plain
 * library calls: `FAST_PATHS=off` (read once, at start). Each path changes how a call reaches the
 * database, never what it answers; CI runs the server suite once with them off (decisions 250, 260).
 *
 * - named statements (named-statements.ts): PostgreSQL parses and plans a statement once per
 *   connection; off, every statement goes unnamed.
 * - statements built once (statements.ts, `builtOnce`): Drizzle builds a statement's text once per
 *   key and runs copies bound to the caller's connection, which leans on Drizzle's internals (the
 *   session of a Db, the client of a prepared query); off, each call builds its own.
 * - writes together (statements.ts, `writeTogether`): writes nobody reads back go as one statement;
 *   off, each goes as its own.
 */
export const fastPathsOn = process.env.FAST_PATHS !== "off";
