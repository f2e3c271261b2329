import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export const lockFileName = "trialdesk.lock";

/** Another live process holds the data folder. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${dataDir} is in use by another Trialdesk process (pid ${pid}). ` +
        "Stop that process first, or use another DATA_DIR.",
    );
  }
}

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

/**
 * One process per embedded data folder: PGlite is one PostgreSQL for one process, and two on the
 * same files overwrite each other's writes. The lock is a file created exclusively (O_EXCL) holding
 * the owner's pid, kept for the process's life; a lock whose process is gone (kill -9, a crash) is
 * taken over. Answers the release function (also run when the process exits).
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, lockFileName);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        try {
          if (readFileSync(file, "utf8").trim() === String(process.pid)) unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let owner = Number.NaN;
    try {
      const text = readFileSync(file, "utf8").trim();
      owner = text === "" ? Number.NaN : Number(text);
    } catch {
      continue; // released meanwhile: try again
    }
    if (Number.isNaN(owner) || owner === 0) {
      // Created but not yet written by its owner: give it a moment.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      if (attempt < 4) continue;
    }
    if (alive(owner)) throw new DataDirInUseError(dataDir, owner);
    try {
      unlinkSync(file); // stale: its process is gone
    } catch {
      // Someone else took it over first; the next attempt sees theirs.
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir}`);
}

/** How the command-line entry points end on a start-up failure: the in-use message alone, exit 1. */
export function exitOnStartFailure(error: unknown): never {
  console.error(error instanceof DataDirInUseError ? error.message : error);
  process.exit(1);
}
