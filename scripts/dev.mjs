// Development: the API server (restarting on change) on :3000 and Vite with hot reload on :5173,
// which proxies /api and /config.json to the server. Ctrl+C stops both.
import { spawn } from "node:child_process";

const children = [
  spawn("node_modules/.bin/tsx", ["watch", "packages/server/src/main.ts"], { stdio: "inherit" }),
  spawn("../../node_modules/.bin/vite", [], { stdio: "inherit", cwd: "packages/web" }),
];
console.log("Open http://localhost:5173 (API on http://localhost:3000)");
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) child.on("exit", stop);
