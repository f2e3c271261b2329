import { admin, expect, test } from "./fixtures";

test("an anonymous visitor is sent to the sign-in page", async ({ page }) => {
  await page.goto("/therapy-categories");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Welcome back!")).toBeVisible();
});

test("a wrong password shows the server's message in a red box", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel(/e-?mail/i).fill(admin.email);
  await page.getByLabel("Password", { exact: true }).fill("wrong-password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("alert")).toContainText("Invalid e-mail or password");
  await expect(page).toHaveURL(/\/login$/);
});

test("signing in opens home with its four tiles, and signing out says so", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel(/e-?mail/i).fill(admin.email);
  const password = page.getByLabel("Password", { exact: true });
  await password.fill(admin.password);
  await expect(password).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(password).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: "Sign In" }).click();

  await expect(page).toHaveURL(/\/$/);
  const tiles = page.getByRole("main");
  await expect(tiles.getByRole("link", { name: "New visit" })).toHaveAttribute(
    "href",
    "/patient-visits/create",
  );
  await expect(tiles.getByRole("link", { name: "Add patient to study" })).toHaveAttribute(
    "href",
    "/study-patients/create",
  );
  await expect(tiles.getByRole("link", { name: "New Patient" })).toHaveAttribute("href", "/patients/create");
  await expect(tiles.getByRole("link", { name: "Visit summary" })).toHaveAttribute(
    "href",
    /^\/visit-summary\/std-/,
  );
  await expect(page.getByText("2025.1.0")).toBeVisible();

  // The session survives a reload: the refresh cookie gets a new access token.
  await page.reload();
  await expect(tiles.getByRole("link", { name: "New Patient" })).toBeVisible();

  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page.getByText("You have been logged out!")).toBeVisible();
  await page.getByRole("link", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/login$/);

  // Signed out for real: protected pages send us back to sign-in.
  await page.goto("/therapy-areas");
  await expect(page).toHaveURL(/\/login$/);
});
