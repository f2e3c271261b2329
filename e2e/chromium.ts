import { existsSync } from "node:fs";

/**
 * Debian's Chromium as the bench launches it: never a downloaded browser, and the flags that keep it
 * quiet and working in a container without a sandbox, a GPU or a large /dev/shm.
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

const headlessShell = "/usr/bin/chromium-headless-shell";

/**
 * The end-to-end suite's Chromium: Debian's headless shell (`chromium-headless-shell`, built from the
 * same source and version) when it is installed, as Playwright itself runs headless tests; the full
 * browser in headless mode took a third more of the machine for the same suite (decision 261).
 * Without smooth scrolling: a key that scrolls while the previous key's scroll animation is ending
 * was dropped now and then (PageDown after ArrowRight in the visit summary, 3 of 40 runs; decision 263).
 */
export const testLaunchOptions = {
  ...chromiumLaunchOptions,
  args: [...chromiumLaunchOptions.args, "--disable-smooth-scrolling"],
  executablePath:
    process.env.CHROMIUM_PATH ??
    (existsSync(headlessShell) ? headlessShell : chromiumLaunchOptions.executablePath),
};
