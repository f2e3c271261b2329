import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The server's files first, four at a time (see packages/server/vitest.config.ts), then the
    // domain's and the web's, one per core.
    projects: ["packages/domain", "packages/server", "packages/web"],
  },
});
