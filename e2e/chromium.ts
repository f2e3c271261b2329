/**
 * Debian's Chromium as the tests and the bench launch it: never a downloaded browser, and the flags
 * that keep it quiet and working in a container without a sandbox, a GPU or a large /dev/shm.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};
