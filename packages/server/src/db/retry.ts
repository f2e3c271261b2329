import { type ErrorCause, findCause } from "./error-causes";

/**
 * Runs `work`, and again where that is safe and likely to succeed. The work is a read, or a
 * transaction that was rolled back: it can run again. A statement refused as stale has been renamed by
 * then (see retire): once more, afresh; a transaction may hold several (a table change touches each
 * that returns its columns) and finds them one at a time. A deadlock or serialization failure lost to
 * a simultaneous save: once more after a moment, when the winner is done, instead of asking the person
 * to try again.
 */
export const retried = <T>(work: () => Promise<T>, retries = 4, collisions = 2): Promise<T> =>
  work().catch(async (error: unknown) => {
    if (isStaleStatement(error) && retries > 0) return retried(work, retries - 1, collisions);
    if (isCollision(error) && collisions > 0) {
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
      return retried(work, retries, collisions - 1);
    }
    throw error;
  });

/** A deadlock (40P01) or serialization failure (40001): PostgreSQL rolled the transaction back. */
function isCollision(error: unknown): boolean {
  return findCause(error, ({ code }) => code === "40P01" || code === "40001") !== undefined;
}

/**
 * A named statement PostgreSQL will not run on some connection any more: dropped there ("prepared
 * statement … does not exist": DEALLOCATE ALL, a connection pooler's reset), or planned before a
 * table changed ("cached plan must not change result type": another process's migration widened a
 * column, and that connection refuses the statement for good). Not the caller's fault, and not lasting.
 */
export function isStaleStatement(error: unknown): boolean {
  const stale = ({ code, message }: ErrorCause) =>
    code === "26000" ||
    (code === "0A000" &&
      typeof message === "string" &&
      /cached plan must not change result type/.test(message));
  return findCause(error, stale) !== undefined;
}
