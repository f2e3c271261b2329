import { shortTimeoutURL } from "../playwright.config";
import { admin, expect, signIn, test } from "./fixtures";

test("therapy category and area detail pages open without signing in", async ({ page, request }) => {
  // The `request` fixture has its own cookies: the page below stays signed out.
  const login = await request.post("/api/auth", {
    data: { username: admin.email, password: admin.password },
  });
  const headers = { Authorization: `Bearer ${(await login.json()).data.accessToken}` };
  const areas = await request.get("/api/therapy-areas?page=1&pagesize=1", { headers });
  const area = (await areas.json()).data.items[0];
  const categories = await request.get("/api/therapy-categories?page=1&pagesize=1", { headers });
  const category = (await categories.json()).data.items[0];

  await page.goto(`/therapy-areas/${area.uuid}`);
  await expect(page).toHaveURL(new RegExp(`/therapy-areas/${area.uuid}$`));
  await expect(page.getByText(area.name, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(`${area.therapyCategoryName} (${area.therapyCategoryId})`)).toBeVisible();

  await page.goto(`/therapy-categories/${category.uuid}`);
  await expect(page.getByText(category.uuid, { exact: true })).toBeVisible();

  await page.goto("/therapy-areas");
  await expect(page).toHaveURL(/\/login$/);
});

test("the menu comes from the server and collapses below 1024 px", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 800 });
  await signIn(page, "/");
  const toggle = page.getByRole("button", { name: "Toggle menu" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("link", { name: "Therapy categories" })).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await page.getByRole("link", { name: "Therapy categories" }).click();
  await expect(page).toHaveURL(/\/therapy-categories/);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Therapy areas" })).toBeVisible();
});

test("the inactivity countdown reaching zero lands on /logout", async ({ page }) => {
  const response = await page.request.post(`${shortTimeoutURL}/api/auth`, {
    data: { username: admin.email, password: admin.password },
  });
  expect(response.ok()).toBeTruthy();
  await page.goto(`${shortTimeoutURL}/`);
  // The countdown by its role: the header's clock also reads 00:0x just after midnight.
  await expect(page.getByRole("timer", { name: "Session expires in" })).toHaveText(/^00:0[0-5]$/);
  await expect(page).toHaveURL(/\/logout$/, { timeout: 15_000 });
  await expect(page.getByText("You have been logged out!")).toBeVisible();
});

test("the browser tab shows Trialdesk's icon: the page names it and it loads", async ({ page }) => {
  await page.goto("/login");
  const href = await page.locator('link[rel="icon"]').getAttribute("href");
  expect(href).toBe("/favicon.svg");
  const icon = await page.request.get(href as string);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  expect(await icon.text()).toContain("<svg");
});
