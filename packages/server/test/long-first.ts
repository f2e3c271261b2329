import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order of a run's files; the root vitest.config.ts gives it to the whole run (Vitest sorts a
 * run's files with the run's sequencer, not a project's). Vitest runs one project's files after
 * another's, which keeps each worker on one project's modules: kept. Within each project the server
 * files that run longest, most of it waiting on the processes they start or on timeouts they prove,
 * start first, so that no worker runs one alone at the end while the other cores idle; and the file
 * that starts processes (50–70 s, ~40 s of a core in the commands it runs) before every other,
 * whichever project it tests in.
 * On a fresh clone Vitest knows no durations and would start the largest files first.
 */
const longFirst = ["processes", "random-input", "startup", "database-stall", "worklist", "finance-ledger"];

const longRank = (file: TestSpecification) => {
  const found = longFirst.findIndex((name) => file.moduleId.endsWith(`/${name}.test.ts`));
  return found === -1 ? longFirst.length : found;
};

export default class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    const key = (file: TestSpecification) => {
      const rank = longRank(file);
      return [rank === 0 ? 0 : 1, projects.indexOf(file.project.name), rank];
    };
    const compare = (a: TestSpecification, b: TestSpecification) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2];
    };
    // Array sort is stable: otherwise the order Vitest chose (larger or slower files first).
    return [...sorted].sort(compare);
  }
}
