import { defineConfig } from "vitest/config";
import LongFirst from "./test/long-first.ts";

export default defineConfig({
  test: {
    name: "server",
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two workers per core: a server test file waits on its databases (PostgreSQL, a spawned server)
    // about a third of the time, and with one per core the cores sat idle that long (327 s → 241 s).
    maxWorkers: 4,
    // Worker threads, not processes: the same files took ~10 % less CPU (decision 254).
    pool: "threads",
    // One module graph per worker, not per file: a file then skips re-importing the server (about
    // 1 s of a core each, 46 files, in each server project). The files share no state but the per-process
    // budget of named statements, which prepared-statements.test.ts imports afresh for itself.
    isolate: false,
    sequence: { groupOrder: 0, sequencer: LongFirst },
  },
});
