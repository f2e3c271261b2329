import { promisify } from "node:util";
import zlib from "node:zlib";
import fastifyCompress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/**
 * Answers up to this size are compressed on the request's own thread: a page of a list (~18 KB) takes
 * ~0.14 ms so, and ~0.44 ms of process time handed to the thread pool (issue 14: a fifth of a list
 * call under 32 clients). Bigger ones (the visit summary) go to the pool, not to hold up other calls.
 */
const inlineCompressionLimit = 64 * 1024;

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
const compressionThreshold = 1024;
/** Brotli's default quality 11 costs seconds on megabytes of JSON; 4 is near gzip's speed. */
const brotliQuality = 4;
/**
 * Answers compressed inline take quality 2: on a list page of 18 KB it costs 97 µs against quality 4's
 * 180 µs, for 2% more bytes (3.6 vs 3.5 KB; issue 14: compressing was a tenth of a list call's process time).
 */
const inlineBrotliQuality = 2;

/**
 * The encoding a client accepts that we send: brotli, else gzip, by the client's q-values (ties go to
 * brotli); null for none. `*` stands for any encoding not named.
 */
export function chosenEncoding(header: string | string[] | undefined): "br" | "gzip" | null {
  const weights = new Map<string, number>();
  for (const part of [header ?? ""].flat().join(",").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  const [br, gz] = [weightOf("br"), weightOf("gzip")];
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? "br" : "gzip";
}

/**
 * gzip or brotli for answers above 1 KB (issue 14). The API's JSON answers are compressed in one call
 * each: @fastify/compress streams every answer through a compressor, which cost a quarter of the
 * process's time on a list of 50 patients under load; a whole body at once, with its size as brotli's
 * hint, costs a fraction of that (and the 1.3 MB visit summary compresses in half the time). Streams
 * (CSV exports) and the static web app are left to @fastify/compress, which skips an answer that
 * already has an encoding: the web app's files go out as the build encoded them (static.ts).
 */
export async function registerCompression(app: FastifyInstance) {
  // API routes answer JSON, which the hook below compresses: @fastify/compress's per-request hooks
  // (its stream, and a check for compressed request bodies on routes that take none) are left off
  // them. CSV exports stream and the API docs serve files: those keep the plugin.
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/") || route.url.startsWith("/api/docs") || route.url.endsWith("/export"))
      return;
    route.compress ??= false;
    const methods = [route.method].flat();
    if (methods.every((method) => method === "GET" || method === "HEAD")) route.decompress ??= false;
  });
  app.addHook("onSend", async (request, reply, payload) => {
    if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
    if (request.method === "HEAD" || reply.hasHeader("content-encoding")) return payload;
    if (!String(reply.getHeader("content-type") ?? "").startsWith("application/json")) return payload;
    // At most 3 bytes a character: shorter strings are below the threshold, whatever they hold.
    if (typeof payload === "string" && payload.length * 3 < compressionThreshold) return payload;
    // Turned into bytes once: counting a string's bytes is a pass of its own (~4 ms on the visit
    // summary, whose JSON is a rope until read), and compressing needs the bytes anyway.
    const body = typeof payload === "string" ? Buffer.from(payload) : payload;
    const size = body.length;
    if (size < compressionThreshold) return body;
    const vary = reply.getHeader("vary");
    if (!vary) reply.header("vary", "accept-encoding");
    else if (!/accept-encoding/i.test(String(vary))) reply.header("vary", `${vary}, accept-encoding`);
    const encoding = chosenEncoding(request.headers["accept-encoding"]);
    if (!encoding) return body;
    const inline = size <= inlineCompressionLimit;
    const compressed =
      encoding === "br"
        ? await (inline ? zlib.brotliCompressSync : brotli)(body, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: inline ? inlineBrotliQuality : brotliQuality,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
            },
          })
        : await (inline ? zlib.gzipSync : gzip)(body);
    reply.header("content-encoding", encoding).header("content-length", compressed.length);
    return compressed;
  });
  await app.register(fastifyCompress, {
    threshold: compressionThreshold,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality } },
  });
}
