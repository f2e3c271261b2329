import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../../../e2e/chromium";
import { demoAdmin } from "../src/seed/factories";

/**
 * What a person sees of the visit summary in Chromium: time to the first drawn rows (and, of it, until
 * the summary's answer had arrived: the rest is decoding and drawing), and scrolling.
 */
export type DrawFigures = {
  firstRowsMs: number;
  answerMs: number;
  frames: number;
  frameP95Ms: number;
  longFrames: number;
};

/**
 * Opens the visit summary of `studyUuid` as the demo administrator with `siteCode` active: the time
 * from navigation to the grid's first patient row, then 3 s of scrolling down and right through the
 * grid, one step per animation frame, with the frame intervals (smooth: under 1/30 s).
 */
export async function drawSummary(base: string, studyUuid: string, siteCode: string): Promise<DrawFigures> {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const signIn = await page.request.post(`${base}/api/auth`, {
      data: { username: demoAdmin.email, password: demoAdmin.password },
    });
    if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()}`);
    await page.goto(`${base}/`);
    await page.getByTitle("Active site").click();
    await page.getByRole("list", { name: "Sites" }).getByRole("button").filter({ hasText: siteCode }).click();
    const started = Date.now();
    await page.goto(`${base}/visit-summary/${studyUuid}`);
    const grid = page.getByRole("table", { name: "Visit summary" });
    await grid.getByRole("row").nth(1).waitFor({ timeout: 60_000 });
    const firstRowsMs = Date.now() - started;
    const answerMs = (await page.evaluate(
      `Math.round(performance.getEntriesByType("resource")
        .find((entry) => entry.name.includes("/api/patient-visit-summary/"))?.responseEnd ?? NaN)`,
    )) as number;
    // Written as text: tsx would name the functions with a helper the browser does not have.
    const frames = (await page.evaluate(
      `new Promise((resolve) => {
        const area = document.querySelector('[aria-label="Visit summary grid"]');
        const intervals = [];
        let last = performance.now();
        const end = last + 3000;
        const step = (now) => {
          intervals.push(now - last);
          last = now;
          area.scrollTop += 120;
          area.scrollLeft += 20;
          if (now < end) requestAnimationFrame(step);
          else resolve(intervals);
        };
        requestAnimationFrame(step);
      })`,
    )) as number[];
    frames.sort((a, b) => a - b);
    return {
      firstRowsMs,
      answerMs,
      frames: frames.length,
      frameP95Ms: frames[Math.floor(frames.length * 0.95)] ?? Number.NaN,
      longFrames: frames.filter((f) => f > 1000 / 30).length,
    };
  } finally {
    await browser.close();
  }
}
