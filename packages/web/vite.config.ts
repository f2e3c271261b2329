import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    // In development the API server runs on :3000 (npm run dev).
    proxy: { "/api": "http://localhost:3000", "/config.json": "http://localhost:3000" },
  },
  build: { outDir: "dist", sourcemap: false },
  test: {
    name: "web",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}", "test/**/*.test.{ts,tsx}"],
    setupFiles: ["test/setup.ts"],
  },
});
