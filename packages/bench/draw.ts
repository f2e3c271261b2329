import { chromium, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "@trialdesk/e2e/chromium";
import { demoAdmin } from "@trialdesk/server/src/seed/factories";

/**
 * What a person sees of the visit summary in Chromium, timed inside the page (Playwright's own
 * round trips are not part of it), the median of `tries` each:
 * - openMs: opened from the app, from the click on the study's "Open the visit summary" to the frame
 *   that draws the grid's first patient row;
 * - loadMs: its address loaded afresh, from the navigation's start to that frame: the app's start-up
 *   (scripts, configuration, token, user, sites) comes first;
 * - answerMs: of openMs, until the summary's answer had arrived (the rest is reading and drawing it);
 * then 3 s of scrolling with the mouse wheel, with the frame intervals (smooth: under 1/30 s).
 */
export type DrawFigures = {
  openMs: number;
  answerMs: number;
  loadMs: number;
  frames: number;
  frameP95Ms: number;
  longFrames: number;
  /** How far down the wheel scrolled in the 3 s. */
  scrolledPx: number;
};

const tries = 5;
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Written as text: tsx would name the functions with a helper the browser does not have. Marks the
// last click and the frame in which the grid's first patient row is drawn (the frame after it enters
// the page).
const marks = `(() => {
  window.__draw = {};
  addEventListener("click", () => { window.__draw = { clicked: performance.now() }; }, true);
  new MutationObserver(() => {
    const draw = window.__draw;
    if (draw.drawn || draw.waiting) return;
    if (!document.querySelector('[aria-label="Visit summary"] [aria-rowindex="2"]')) return;
    draw.waiting = true;
    requestAnimationFrame(() => { draw.drawn = performance.now(); });
  }).observe(document, { childList: true, subtree: true });
})()`;

const drawnAt = async (page: Page) => {
  // Polled (waitForFunction's string is eval, which the app's CSP refuses); the times are the page's own.
  const until = Date.now() + 60_000;
  while (!(await page.evaluate("Boolean(window.__draw && window.__draw.drawn)"))) {
    if (Date.now() > until) throw new Error("the visit summary was not drawn within 60 s");
    await page.waitForTimeout(20);
  }
  return (await page.evaluate(
    `({ ...window.__draw, answered: performance.getEntriesByType("resource")
        .filter((entry) => entry.name.includes("/api/patient-visit-summary/")).at(-1)?.responseEnd })`,
  )) as { clicked?: number; drawn: number; answered?: number };
};

/**
 * Opens the visit summary of `studyUuid` as the demo administrator with `siteCode` active: from the
 * study's page, and by its address; then scrolls down and right through the grid with the mouse wheel.
 */
export async function drawSummary(base: string, studyUuid: string, siteCode: string): Promise<DrawFigures> {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(marks);
    const signIn = await page.request.post(`${base}/api/auth`, {
      data: { username: demoAdmin.email, password: demoAdmin.password },
    });
    if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()}`);
    await page.goto(`${base}/`);
    await page.getByTitle("Active site").click();
    await page.getByRole("list", { name: "Sites" }).getByRole("button").filter({ hasText: siteCode }).click();
    // Once unmeasured, so the server and the browser have seen the calls before.
    await page.goto(`${base}/visit-summary/${studyUuid}`);
    await drawnAt(page);

    const opened: number[] = [];
    const answered: number[] = [];
    for (let i = 0; i < tries; i++) {
      await page.goto(`${base}/studies/${studyUuid}`);
      const link = page.getByRole("link", { name: "Open the visit summary" });
      await link.waitFor();
      await page.waitForTimeout(300);
      await link.click();
      const mark = await drawnAt(page);
      opened.push(mark.drawn - (mark.clicked ?? Number.NaN));
      answered.push((mark.answered ?? Number.NaN) - (mark.clicked ?? Number.NaN));
    }
    const loaded: number[] = [];
    for (let i = 0; i < tries; i++) {
      await page.goto(`${base}/visit-summary/${studyUuid}`);
      loaded.push((await drawnAt(page)).drawn);
    }

    // Scrolling as a mouse wheel does it (input events, scrolled by the browser), 120 px down and 20 px
    // right per turn for 3 s, while the page records the interval between its frames.
    const area = page.getByRole("region", { name: "Visit summary grid" });
    const box = await area.boundingBox();
    if (!box) throw new Error("the visit summary grid is not on screen");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.evaluate(`(() => {
      window.__frames = [];
      let last = performance.now();
      const tick = (now) => {
        window.__frames.push(now - last);
        last = now;
        if (!window.__stopFrames) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })()`);
    const scrollingUntil = Date.now() + 3000;
    while (Date.now() < scrollingUntil) await page.mouse.wheel(20, 120);
    const [frames, scrolled] = (await page.evaluate(`(() => {
      window.__stopFrames = true;
      return [window.__frames.slice(1), document.querySelector('[aria-label="Visit summary grid"]').scrollTop];
    })()`)) as [number[], number];
    frames.sort((a, b) => a - b);
    return {
      openMs: Math.round(median(opened)),
      answerMs: Math.round(median(answered)),
      loadMs: Math.round(median(loaded)),
      frames: frames.length,
      frameP95Ms: frames[Math.floor(frames.length * 0.95)] ?? Number.NaN,
      longFrames: frames.filter((f) => f > 1000 / 30).length,
      scrolledPx: Math.round(scrolled),
    };
  } finally {
    await browser.close();
  }
}
