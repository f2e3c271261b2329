import { shortTimeoutURL } from "../playwright.config";
import { expect, signIn, staff, test } from "./fixtures";

/**
 * The tests of a worker share one page (decision 258): what one test leaves behind — a session, a
 * chosen site, storage at either server's origin, a narrow viewport, a listener — the next must not
 * find. Serial, so that both run in one worker, one after the other.
 */
test.describe.configure({ mode: "serial" });

const leftBehind: string[] = [];

test("a test leaves a session, storage at two origins, a narrow viewport and a listener behind", async ({
  page,
}) => {
  await page.goto(`${shortTimeoutURL}/config.json`);
  await page.evaluate(() => {
    localStorage.setItem("left-behind", "short");
    sessionStorage.setItem("left-behind", "short");
  });
  await signIn(page, "/", staff);
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
  await page.evaluate(() => {
    localStorage.setItem("left-behind", "main");
    sessionStorage.setItem("left-behind", "main");
  });
  await page.setViewportSize({ width: 390, height: 800 });
  page.on("console", (message) => leftBehind.push(message.text()));
});

test("the next test of the worker starts signed out, with empty storage and the default viewport", async ({
  page,
  context,
}) => {
  expect(await context.cookies()).toEqual([]);
  expect(page.viewportSize()).toEqual({ width: 1280, height: 720 });
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  const stored = () =>
    page.evaluate(() => [localStorage.getItem("left-behind"), sessionStorage.getItem("left-behind")]);
  expect(await stored()).toEqual([null, null]);
  await page.evaluate(() => console.log("heard by the earlier test?"));
  expect(leftBehind).toEqual([]);
  await page.goto(`${shortTimeoutURL}/config.json`);
  expect(await stored()).toEqual([null, null]);
});
