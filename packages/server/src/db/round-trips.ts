/**
 * Two round trips fewer for every save's transaction on PostgreSQL (issue 14: each round trip cost a
 * patient visit's save ~5% of its throughput, mostly in waking the other side): BEGIN goes out in
 * front of the transaction's first statement and COMMIT behind its last one, all in the statement's
 * own extended-protocol group (before its Sync), so PostgreSQL answers them in one go.
 *
 * - PostgreSQL skips what follows an error up to the Sync. If BEGIN fails, the statement does not
 *   run and fails with BEGIN's error: nothing runs outside the transaction. If the last statement
 *   fails, the COMMIT does not run and the transaction is rolled back as before.
 * - If the COMMIT fails, the last statement fails with the COMMIT's error: its answer is handed over
 *   only once the COMMIT is answered.
 * - The answers to BEGIN and COMMIT are kept from pg, whose client would take them for its
 *   statement's. The COMMIT or ROLLBACK asked for afterwards (Drizzle's, at the end of the
 *   transaction's work) is answered here.
 *
 * Only where the client is idle and the statement goes by the extended protocol (it has parameters or
 * a name, as every statement of a save has); otherwise BEGIN and COMMIT go on their own, as before.
 * PGlite has no round trips and does not come here. The last statement is marked by its caller
 * (`asLastStatement`, which marks the connection): nothing may follow it in the transaction.
 */

/** Set on a connection whose next statement is its transaction's last (asLastStatement). */
export const lastStatementNext = Symbol("the next statement is its transaction's last");

type Message = { text?: string };
type Connection = {
  emit: (event: string | symbol, ...args: unknown[]) => boolean;
  on: (event: string, listener: (...args: unknown[]) => void) => unknown;
  parse: (query: { text: string }) => void;
  bind: (config: Record<string, never>) => void;
  execute: (config: Record<string, never>) => void;
  sync: () => void;
  close: (...args: unknown[]) => void;
  stream: { cork: () => void; uncork: () => void; destroy: () => void };
};
/** The parts of pg's Client this leans on (pg 8: its connection, and whether it is idle). */
export type ClientInternals = {
  connection: Connection;
  readyForQuery: boolean;
  _queryQueue: unknown[];
  [lastStatementNext]?: boolean;
};
type QueryConfig = { text?: unknown; name?: unknown; values?: unknown[] };

/**
 * The last statement's group: its own answers go to pg up to its CommandComplete, then the COMMIT's
 * are kept (an error is pg's: the statement fails with it), and the ReadyForQuery is pg's again. After
 * an error of the statement's, PostgreSQL skips the COMMIT.
 */
type CommitStep = { kind: "commit"; phase: "statement" | "commit" | "skipped"; tag: string | null };
/** What comes back, in order: BEGIN's answers (kept from pg), or a last statement's group. */
type Step = { kind: "begin" } | CommitStep;

const answered = (command: string) => ({ command, rowCount: null, oid: null, rows: [], fields: [] });
/**
 * A statement's text, lower case, when it is short enough to be transaction control (BEGIN, COMMIT,
 * ROLLBACK, a savepoint's): every statement passes here, and copying a save's long texts to compare
 * them would be work on every one.
 */
const controlText = (config: unknown) => {
  const text = typeof config === "string" ? config : (config as QueryConfig | null)?.text;
  return typeof text === "string" && text.length <= 64 ? text.trim().toLowerCase() : undefined;
};

export class RoundTrips {
  /** BEGIN was asked for and goes out with the next statement. */
  #beginDeferred = false;
  /** The transaction ended with a COMMIT sent behind its last statement. */
  #ended = false;
  /** A transaction this saw begin is open, and how many savepoints deep its statements are. */
  #inTransaction = false;
  #savepoints = 0;
  #steps: Step[] = [];

  /** `plain` is pg's own query, for a text without parameters (not this class's). */
  constructor(
    private readonly client: ClientInternals,
    private readonly plain: (text: string) => Promise<unknown>,
  ) {
    const connection = client.connection;
    const emit = connection.emit;
    connection.emit = (event, ...args) => {
      if (typeof event === "string" && this.#keep(event, args[0] as Message)) return true;
      return emit.call(connection, event, ...args);
    };
    // A lost connection answers nothing more (pg fails its statements, whose COMMIT is then unknown).
    connection.on("end", () => this.#lost());
    connection.on("error", () => this.#lost());
  }

  /**
   * BEGIN, COMMIT and ROLLBACK this answers itself (a deferred BEGIN, or the end of a transaction
   * already committed behind its last statement), else null.
   */
  answerLocally(config: unknown, values: unknown): Promise<unknown> | null {
    const text = controlText(config);
    const plain = !(Array.isArray(values) && values.length > 0);
    if (text === "begin" && plain) {
      this.client[lastStatementNext] = false;
      this.#beginDeferred = true;
      this.#ended = false;
      this.#inTransaction = true;
      this.#savepoints = 0;
      return Promise.resolve(answered("BEGIN"));
    }
    if ((text === "commit" || text === "rollback") && plain) {
      // A mark whose work sent nothing ends with its transaction.
      this.client[lastStatementNext] = false;
      this.#inTransaction = false;
      if (this.#beginDeferred || this.#ended) {
        // Nothing was sent since BEGIN, or the transaction has ended already.
        this.#beginDeferred = false;
        this.#ended = false;
        return Promise.resolve(answered(text.toUpperCase()));
      }
    }
    // A COMMIT behind a statement inside a savepoint would end the whole transaction early.
    if (text?.startsWith("savepoint ")) this.#savepoints += 1;
    if (text?.startsWith("release savepoint ") || text?.startsWith("rollback to savepoint "))
      this.#savepoints = Math.max(0, this.#savepoints - 1);
    if (this.#ended) {
      this.#ended = false;
      return Promise.reject(new Error("A statement was sent after its transaction's last statement"));
    }
    return null;
  }

  /** Sends a statement (`send`: pg's own query) with a deferred BEGIN ahead, and a COMMIT behind if it is the last. */
  send(config: unknown, values: unknown, send: () => Promise<unknown>): Promise<unknown> {
    const marked = this.client[lastStatementNext] === true;
    this.client[lastStatementNext] = false;
    const last = marked && this.#inTransaction && this.#savepoints === 0;
    const begin = this.#beginDeferred;
    if (!begin && !last) return send();
    this.#beginDeferred = false;
    const query = (typeof config === "object" ? config : {}) as QueryConfig;
    const params = Array.isArray(values) ? values : query.values;
    // pg sends a statement by the extended protocol when it has a name or parameters.
    const extended = Boolean(query.name) || (params?.length ?? 0) > 0;
    const idle =
      this.client.readyForQuery === true && this.client._queryQueue.length === 0 && this.#steps.length === 0;
    if (!extended || !idle) {
      // As before: BEGIN on its own first, the COMMIT asked for later.
      if (!begin) return send();
      return this.plain("BEGIN").then(send);
    }
    const { connection } = this.client;
    const { sync, close } = connection;
    let syncs = 0;
    let closed = false;
    let result: Promise<unknown>;
    connection.stream.cork();
    try {
      if (begin) {
        this.#steps.push({ kind: "begin" });
        connection.parse({ text: "BEGIN" });
        connection.bind({});
        connection.execute({});
      }
      if (last) {
        // pg ends the statement's group with a Sync: held back, to come after the COMMIT.
        connection.sync = () => {
          syncs += 1;
        };
        connection.close = (...args: unknown[]) => {
          closed = true;
          close.apply(connection, args);
        };
      }
      // pg writes an idle client's statement at once, into the corked stream.
      try {
        result = send();
      } finally {
        connection.sync = sync;
        connection.close = close;
      }
      if (last && (syncs !== 1 || closed)) {
        // pg gave up on the statement before sending it (a value it could not write): no COMMIT.
        for (let i = 0; i < syncs; i++) sync.call(connection);
      } else if (last) {
        const step: CommitStep = { kind: "commit", phase: "statement", tag: null };
        this.#steps.push(step);
        connection.parse({ text: "COMMIT" });
        connection.bind({});
        connection.execute({});
        sync.call(connection);
        return result.then((answer) => {
          if (step.tag !== "COMMIT") throw new Error(`The transaction ended in ${step.tag}, not COMMIT`);
          return answer;
        });
      }
    } finally {
      connection.stream.uncork();
    }
    return result;
  }

  /** Whether a message from the server answers something of ours (then pg does not see it). */
  #keep(event: string, message: Message): boolean {
    const step = this.#steps[0];
    if (!step) return false;
    if (step.kind === "begin") {
      if (event === "parseComplete" || event === "bindComplete") return true;
      if (event === "commandComplete") {
        this.#steps.shift();
        return true;
      }
      // BEGIN refused: PostgreSQL skipped the statement behind it, which fails with this error.
      if (event === "errorMessage") this.#steps.shift();
      return false;
    }
    if (event === "readyForQuery") {
      this.#steps.shift();
      // A COMMIT that ran ended the transaction, whether it failed or not; a skipped one did not.
      this.#ended = step.phase === "commit";
      return false;
    }
    if (step.phase === "statement") {
      if (event === "commandComplete") step.phase = "commit";
      else if (event === "errorMessage") step.phase = "skipped";
      return false;
    }
    if (step.phase === "commit") {
      if (event === "parseComplete" || event === "bindComplete") return true;
      if (event === "commandComplete") {
        step.tag = message.text ?? null;
        return true;
      }
    }
    // Errors (the statement's, or the COMMIT's, which the statement then fails with), notices,
    // notifications and parameter changes: pg's.
    return false;
  }

  #lost() {
    this.#steps.length = 0;
  }
}
