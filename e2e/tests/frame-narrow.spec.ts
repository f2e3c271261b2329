import { chooseSite, expect, signIn, test } from "./fixtures";

/** The frame's header on a phone (390 px): one line, nothing off-screen, no sideways scroll. */
test("at 390 px the header fits: no sideways scroll, the version label visible, the site button inside the header", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, "/");
  await chooseSite(page, "BUD");
  const header = page.getByRole("banner");
  await expect(header).toBeVisible();
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(390);
  const headerBox = await header.boundingBox();
  expect(headerBox?.width).toBeLessThanOrEqual(390);

  const version = page.getByTitle("Version");
  await expect(version).toHaveText("2025.1.0");
  await expect(version).toBeInViewport({ ratio: 1 });

  const site = page.getByTitle("Active site");
  const siteBox = await site.boundingBox();
  expect(siteBox?.height).toBeLessThanOrEqual(headerBox?.height ?? 0);
  expect((siteBox?.y ?? 0) + (siteBox?.height ?? 0)).toBeLessThanOrEqual(
    (headerBox?.y ?? 0) + (headerBox?.height ?? 0),
  );
  // The cut label still names the whole site for whoever reads it.
  await expect(site).toContainText("BUD - Budapest CRC");
  await expect(page.getByRole("timer", { name: "Session expires in" })).toBeInViewport();
  await expect(page.getByRole("button", { name: "User menu" })).toBeInViewport({ ratio: 1 });
});

test("at 390 px a list's row actions stay in view while its columns scroll sideways under them", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, "/");
  await chooseSite(page, "BUD");
  await page.goto("/patients");
  const table = page.getByRole("table", { name: "Patients" });
  const row = table.getByRole("row").nth(1);
  const edit = row.getByRole("link", { name: /^Edit / });
  await expect(edit).toBeInViewport({ ratio: 1 });
  // The columns are wider than a phone: scrolled halfway, the actions are still where they were.
  const area = table.locator("xpath=..");
  const [scrollWidth, clientWidth] = await area.evaluate((element) => [
    element.scrollWidth,
    element.clientWidth,
  ]);
  expect(scrollWidth).toBeGreaterThan(clientWidth);
  await area.evaluate((element) =>
    element.scrollTo({ left: (element.scrollWidth - element.clientWidth) / 2 }),
  );
  await expect(edit).toBeInViewport({ ratio: 1 });
  await expect(row.getByRole("link", { name: /^View / })).toBeInViewport({ ratio: 1 });
});
