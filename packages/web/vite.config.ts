import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes each built text file of 1 KB or more beside itself brotli (.br) and gzip (.gz) encoded, at
 * their best: the server sends these as they are (@fastify/static's preCompressed) instead of
 * compressing every asset on every request that the browser has not cached (~50 ms of the server's
 * time for the first screen's scripts on a 2-core machine).
 */
function precompress(): Plugin {
  return {
    name: "trialdesk-precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const dir = options.dir ?? "dist";
      const files = Object.keys(bundle).filter((file) => /\.(js|css|html|svg|json)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const target = path.join(dir, file);
          const content = await readFile(target);
          if (content.length < 1024) return;
          const params = {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          };
          await writeFile(`${target}.br`, await brotli(content, { params }));
          await writeFile(`${target}.gz`, await gzip(content, { level: 9 }));
        }),
      );
    },
  };
}

// In development the API server runs on :3000 (npm run dev); VITE_API_PROXY points elsewhere.
const apiProxy = process.env.VITE_API_PROXY ?? "http://localhost:3000";

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  server: {
    port: 5173,
    proxy: { "/api": apiProxy, "/config.json": apiProxy },
  },
  build: { outDir: "dist", sourcemap: false },
  test: {
    name: "web",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}", "test/**/*.test.{ts,tsx}"],
    setupFiles: ["test/setup.ts"],
    // One jsdom per worker, not per file; test/setup.ts keeps the files apart.
    isolate: false,
    // After the server's files (root vitest.config.ts), one worker per core: these are busy all
    // the time, and more than that only slows each test.
    maxWorkers: 2,
    // A screen test that types through a list of 250 countries took over 5 s on a busy 2-core CI
    // machine: slow is not wrong, so the bound is generous.
    testTimeout: 15_000,
    sequence: { groupOrder: 1 },
  },
});
