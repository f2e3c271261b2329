import http from "node:http";
import zlib from "node:zlib";
// @ts-expect-error autocannon ships no types; the part used here is small.
import autocannon from "autocannon";

/** Latencies of one measured run and what they add up to. */
export type Figures = {
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  max: number;
  errors: number;
};

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

function figures(times: number[], seconds: number, errors: number): Figures {
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    perSecond: times.length / seconds,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: percentile(times, 100),
    errors,
  };
}

export type HttpCall = {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  /** A fresh body per request (creates must not collide), with headers of its own if it has them. */
  body?: () => unknown;
  headersOf?: (body: unknown) => Record<string, string>;
};

/** Answers each client gives at least, for a rate to count: fewer, and the span's edges decide it. */
const roundsPerClient = 3;
/**
 * Answers a figure takes at least, so that its p95 is not its slowest answer: a call of ~100 ms (the
 * visit summary) answers ~19 times in 2 s, and the 95th percentile of 19 is the maximum.
 */
const minSamples = 40;

/**
 * One HTTP call against the server with autocannon: `connections` clients for `seconds`. A call too
 * slow for each client to answer three times in that span (the visit summary under 32 clients), or for
 * `minSamples` answers in all (the summary with one client), is measured by count instead, over the
 * time the answers took: a timed span drops the answers still on their way at its end, which for a
 * call of seconds is most of them.
 */
export async function measureHttp(base: string, call: HttpCall, connections: number, seconds: number) {
  const enough = Math.max(connections * roundsPerClient, minSamples);
  const timed = await autocannonRun(base, call, connections, { duration: seconds });
  if (timed.requests >= enough) return timed;
  // The timed span ended with calls still on their way, which the server goes on answering: a count
  // started at once shared the machine with them (the visit summary's 32 clients: 19 answers a second
  // instead of 26). They are done within the slowest answer's time.
  await new Promise((resolve) => setTimeout(resolve, timed.requests > 0 ? timed.max : seconds * 1000));
  const started = performance.now();
  const counted = await autocannonRun(base, call, connections, { amount: enough, timeout: 120 });
  return { ...counted, perSecond: counted.requests / ((performance.now() - started) / 1000) };
}

async function autocannonRun(
  base: string,
  call: HttpCall,
  connections: number,
  span: { duration: number } | { amount: number; timeout: number },
) {
  const seconds = "duration" in span ? span.duration : 1;
  const times: number[] = [];
  let errors = 0;
  const headers = {
    "accept-encoding": "gzip, br",
    ...(call.body ? { "content-type": "application/json" } : {}),
    ...call.headers,
  };
  const instance = autocannon({
    url: base,
    connections,
    ...span,
    requests: [
      {
        method: call.method,
        path: call.path,
        headers,
        ...(call.body
          ? {
              setupRequest: (request: { headers: Record<string, string> }) => {
                const body = call.body?.();
                return {
                  ...request,
                  headers: { ...request.headers, ...call.headersOf?.(body) },
                  body: JSON.stringify(body),
                };
              },
            }
          : {}),
      },
    ],
  });
  instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
    times.push(ms);
    if (status >= 300 && errors++ === 0) console.error(`  ${call.method} ${call.path}: HTTP ${status}`);
  });
  const result = await instance;
  return figures(times, seconds, errors + (result.errors ?? 0) + (result.timeouts ?? 0));
}

/**
 * The hand-written SQL of a call through a plain pool: `clients` loops for `seconds` (the floor), and
 * on until `minSamples` calls are done, each finishing the call it started; the rate is over the time
 * until the last one finished, as the HTTP side's by count is.
 */
export async function measureRaw(run: () => Promise<unknown>, clients: number, seconds: number) {
  const times: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline || times.length < minSamples) {
        const callStarted = performance.now();
        try {
          await run();
        } catch (error) {
          if (errors++ === 0) console.error(error);
        }
        times.push(performance.now() - callStarted);
      }
    }),
  );
  return figures(times, (performance.now() - started) / 1000, errors);
}

/**
 * The size of an answer as sent (brotli when the server compresses it) and as JSON, and the time until
 * its last byte.
 */
export function wireBytes(base: string, path: string, headers: Record<string, string>) {
  return new Promise<{ wire: number; json: number; encoding: string | null; ms: number }>(
    (resolve, reject) => {
      const started = performance.now();
      http
        .get(`${base}${path}`, { headers: { ...headers, "accept-encoding": "br, gzip" } }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const ms = performance.now() - started;
            const body = Buffer.concat(chunks);
            const encoding = response.headers["content-encoding"] ?? null;
            const json =
              encoding === "br"
                ? zlib.brotliDecompressSync(body).length
                : encoding === "gzip"
                  ? zlib.gunzipSync(body).length
                  : body.length;
            resolve({ wire: body.length, json, encoding, ms });
          });
        })
        .on("error", reject);
    },
  );
}

/**
 * A call as a person makes it, after a pause with no calls at all (`pauseMs`), once per try: the
 * median time until its last byte. The other figures come from a server kept busy, whose database
 * connections and caches are warm (decision 190).
 */
export async function afterPause(
  base: string,
  path: string,
  headers: Record<string, string>,
  pauseMs: number,
) {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    times.push((await wireBytes(base, path, headers)).ms);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}
