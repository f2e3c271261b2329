import { createHash, randomBytes } from "node:crypto";
import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";

export const lockFileName = "trialdesk.lock";

/** Another live process holds the data folder, or so its lock says. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    const file = path.join(dataDir, lockFileName);
    super(
      `The data folder ${dataDir} is in use by another Trialdesk process (pid ${pid}). ` +
        "Stop that process first, or use another DATA_DIR. " +
        `If no Trialdesk process runs as pid ${pid} (the pid of a crashed one, taken since by an unrelated ` +
        `process), the lock may be stale: delete ${file} and start again.`,
    );
  }
}

/** A stale lock whose takeover another process began and never finished (it died meanwhile). */
export class StaleLockError extends Error {}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false; // a lock left by an earlier life of this pid (a container's pid 1)
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A file's text, or null when it is not there. */
function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if (code(error) === "ENOENT") return null;
    throw error;
  }
}

function remove(file: string) {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/** The pid a lock (or takeover mark) names on its first line; NaN when it names none yet. */
function ownerOf(text: string): number {
  const first = text.split("\n")[0].trim();
  return /^\d+$/.test(first) ? Number(first) : Number.NaN;
}

/**
 * Creates `file` with `text` if no such file exists, in one step: the text is written to a file of
 * this process's own and linked to the name (link(2) fails when the name exists), so the lock never
 * exists half-written and at most one process creates it. Where links are not supported, an
 * exclusive open (O_EXCL) does the same, its text following at once. Answers whether it created it.
 */
function createExclusively(file: string, text: string, nonce: string): boolean {
  const temporary = `${file}.${process.pid}-${nonce}.tmp`;
  writeFileSync(temporary, text, { flag: "wx" });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if (code(error) === "EEXIST") return false;
    if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"].includes(code(error) ?? "")) throw error;
  } finally {
    remove(temporary);
  }
  try {
    const fd = openSync(file, "wx");
    writeSync(fd, text);
    closeSync(fd);
    return true;
  } catch (error) {
    if (code(error) === "EEXIST") return false;
    throw error;
  }
}

/**
 * Removes the stale lock whose text was `stale`, if it is still that lock. Several processes may find
 * the same stale lock at the same moment: each first creates the takeover mark of that very lock
 * (its name holds a hash of the lock's text, which holds a random nonce), exclusively, so one of them
 * alone removes it; the others go back and find the new owner's lock. Whoever holds the mark reads
 * the lock again and removes it only if it is still the stale one: nobody can have replaced it
 * meanwhile (its owner is gone, and replacing it takes the mark), so no live lock is ever removed.
 */
function takeOver(dataDir: string, file: string, stale: string, owner: number): void {
  const mark = `${file}.takeover-${createHash("sha256").update(stale).digest("hex").slice(0, 16)}`;
  try {
    writeFileSync(mark, `${process.pid}\n`, { flag: "wx" });
  } catch (error) {
    if (code(error) !== "EEXIST") throw error;
    const holder = ownerOf(read(mark) ?? "");
    // Its holder died in the microseconds between the mark and the removal: only a person can tell.
    if (!Number.isNaN(holder) && !alive(holder) && holder !== process.pid && read(file) === stale)
      throw new StaleLockError(
        `The data folder ${dataDir} has a stale lock (pid ${owner} is gone) whose takeover was cut short. ` +
          `If no Trialdesk process uses ${dataDir}, delete ${file} and ${mark} and start again.`,
      );
    sleep(10); // another process is taking it over: its lock will be there in a moment
    return;
  }
  try {
    if (read(file) === stale) unlinkSync(file);
  } finally {
    remove(mark);
  }
}

/**
 * One process per embedded data folder: PGlite is one PostgreSQL for one process, and two on the
 * same files overwrite each other's writes. The lock is a file created exclusively holding the
 * owner's pid (and a random nonce that tells one lock from another), kept for the process's life; a
 * lock whose process is gone (kill -9, a crash) is taken over, by one process only (see takeOver).
 * Answers the release function (also run when the process exits).
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, lockFileName);
  const nonce = randomBytes(8).toString("hex");
  const mine = `${process.pid}\n${nonce}\n`;
  const deadline = Date.now() + 5000;
  let unwritten = 0;
  while (Date.now() < deadline) {
    if (createExclusively(file, mine, nonce)) {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        if (read(file) === mine) remove(file);
      };
      process.on("exit", release);
      return release;
    }
    const text = read(file);
    if (text === null) continue; // released meanwhile: try again
    const owner = ownerOf(text);
    if (Number.isNaN(owner) && unwritten++ < 5) {
      // Created by an exclusive open, its pid not yet written (or a lock of an older version): a moment.
      sleep(50);
      continue;
    }
    if (alive(owner)) throw new DataDirInUseError(dataDir, owner);
    takeOver(dataDir, file, text, owner);
  }
  throw new Error(`Could not lock the data folder ${dataDir}`);
}

/** How the command-line entry points end on a start-up failure: the in-use message alone, exit 1. */
export function exitOnStartFailure(error: unknown): never {
  const known = error instanceof DataDirInUseError || error instanceof StaleLockError;
  console.error(known ? error.message : error);
  process.exit(1);
}
