import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The server files that run longest, most of it waiting on the processes they start or on timeouts
 * they prove. They start first, so that no worker is left running one of them alone at the end while
 * the other cores idle: on a fresh clone Vitest knows no durations and starts the largest files first.
 */
const longFirst = ["processes", "random-input", "startup", "database-stall", "worklist", "finance-ledger"];

const rank = (file: TestSpecification) => {
  const found = longFirst.findIndex((name) => file.moduleId.endsWith(`/${name}.test.ts`));
  return found === -1 ? longFirst.length : found;
};

export default class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array sort is stable: the rest keep the order Vitest chose.
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}
