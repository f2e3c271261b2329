#!/usr/bin/env node
/**
 * The first screen loads at most 250 KB of gzipped JavaScript (design §7). Reads the built web app
 * (packages/web/dist, or WEB_DIST / the first argument), follows index.html's entry script and
 * modulepreload links and every static import inside them (never a dynamic import(): lazily loaded
 * screens are not on the first screen), adds up their gzipped sizes (the .gz the build wrote beside
 * each, as the server sends it) and fails when the total is over budget.
 * Also fails when one of those files lacks the .br and .gz the build writes beside it for the server
 * to send as they are (packages/web/vite.config.ts), or when they do not decode to it.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, posix, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";

const budgetBytes = 250 * 1024;
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = resolve(process.argv[2] ?? process.env.WEB_DIST ?? join(root, "packages/web/dist"));
const indexFile = join(dist, "index.html");
if (!existsSync(indexFile)) {
  console.error(`check-bundle: ${indexFile} not found; run npm run build first.`);
  process.exit(1);
}

const html = readFileSync(indexFile, "utf8");
/** URL paths as written in index.html ("/assets/index-….js"). */
const entries = [
  ...[...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]),
  ...[...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]),
];
if (entries.length === 0) {
  console.error("check-bundle: index.html names no module script.");
  process.exit(1);
}

// Static imports only: `import{a}from"./x.js"`, `import"./x.js"`, `export*from"./x.js"`.
const staticImport = /(?:\bimport|\bexport)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g;

const sizes = new Map();
const unencoded = [];
const queue = entries.map((path) => path.replace(/^\//, ""));
while (queue.length > 0) {
  const path = queue.shift();
  if (sizes.has(path)) continue;
  const file = join(dist, path);
  if (!existsSync(file)) {
    console.error(`check-bundle: ${path} (named by the build) is missing from ${dist}.`);
    process.exit(1);
  }
  const code = readFileSync(file);
  /** The file as the build encoded it, when that decodes to the file; else null. */
  const encoded = (suffix, decode) => {
    const bytes = existsSync(file + suffix) ? readFileSync(file + suffix) : null;
    if (bytes && decode(bytes).equals(code)) return bytes;
    unencoded.push(path + suffix);
    return null;
  };
  encoded(".br", brotliDecompressSync);
  // Counted as the server sends it to a browser that takes gzip: the build's own .gz.
  sizes.set(path, (encoded(".gz", gunzipSync) ?? gzipSync(code, { level: 9 })).length);
  for (const [, specifier] of code.toString("utf8").matchAll(staticImport)) {
    if (specifier.startsWith(".")) queue.push(posix.join(posix.dirname(path), specifier));
    else if (specifier.startsWith("/")) queue.push(specifier.slice(1));
  }
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const total = [...sizes.values()].reduce((sum, n) => sum + n, 0);
for (const [path, size] of [...sizes].sort((a, b) => b[1] - a[1])) {
  console.log(`  ${kb(size).padStart(9)}  ${path}`);
}
const verdict = total <= budgetBytes ? "within" : "OVER";
console.log(`First screen: ${kb(total)} of gzipped JavaScript, ${verdict} the ${kb(budgetBytes)} budget.`);
if (unencoded.length > 0)
  console.error(`check-bundle: missing or not the file once decoded: ${unencoded.join(", ")}`);
if (total > budgetBytes || unencoded.length > 0) process.exit(1);
