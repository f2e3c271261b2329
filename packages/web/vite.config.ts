import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// In development the API server runs on :3000 (npm run dev); VITE_API_PROXY points elsewhere.
const apiProxy = process.env.VITE_API_PROXY ?? "http://localhost:3000";

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
    sequence: { groupOrder: 1 },
  },
});
