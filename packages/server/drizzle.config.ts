import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  // Every table of the data model lives beside its resource (or its audit and auth code).
  schema: "./src/**/*.table.ts",
  out: "./drizzle",
  casing: "snake_case",
});
