import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "./chromium";

const base = "http://127.0.0.1:3700";
const browser = await chromium.launch(chromiumLaunchOptions);
const page = await browser.newPage();
await page.request.post(`${base}/api/auth`, { data: { username: "admin@example.com", password: "admin1234" } });
await page.goto(`${base}/therapy-categories/create`);
const name = page.getByLabel("Name");
await name.fill("Identity check");
await page.getByLabel("Code").fill("idc");
await name.evaluate((el) => {
  (el as unknown as { marker: string }).marker = "same input";
});
// Hold the save's answer for a second and type meanwhile, as a coordinator might.
await page.route("**/api/therapy-categories", async (route) => {
  const response = await route.fetch();
  await new Promise((r) => setTimeout(r, 1000));
  await route.fulfill({ response });
});
await page.getByRole("button", { name: "Save" }).click();
await page.waitForTimeout(300);
await name.press("End");
await name.pressSequentially(" typed");
await page.getByText("Therapy category created").waitFor();
await page.waitForURL(/\/edit$/);
console.log("url", page.url());
console.log("value", await name.inputValue());
console.log("same input", await name.evaluate((el) => (el as unknown as { marker?: string }).marker ?? "no"));
console.log("reset shown", await page.getByRole("button", { name: "Reset" }).isVisible());
await page.screenshot({ path: "/tmp/identity.png" });
await browser.close();
