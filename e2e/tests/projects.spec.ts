import { choose, expect, openView, type Page, signIn, test, unique } from "./fixtures";

const tab = (page: Page, name: string) => page.getByRole("tab", { name: new RegExp(`^${name}`) });

test("create a project through all five tabs: internal code, badges, banner, first failing tab, save", async ({
  page,
}) => {
  const id = unique();
  const protocolNr = `E2E-${id}`;
  await signIn(page, "/projects/create");
  await expect(page.getByRole("heading", { name: "Add project" })).toBeVisible();
  await expect(page.getByRole("tab")).toHaveText(["Basic", "Details", "Settings", "Finance", "Staff"]);

  // A save with nothing filled: every required message on Basic, its badge, and the banner.
  await tab(page, "Details").click();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Please correct the errors!" })).toBeVisible();
  await expect(tab(page, "Basic")).toHaveAttribute("aria-selected", "true");
  await expect(tab(page, "Basic")).toHaveAccessibleName("Basic (8 errors)");
  for (const message of [
    "Working name is required",
    "Protocol number is required",
    "Sponsor is required",
    "CRO is required",
    "Therapy area is required",
    "Phase is required",
    "Status is required",
    "At least one site is required",
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }

  // Basic: the internal code follows every change.
  const code = page.getByLabel("Internal code");
  await expect(code).toHaveValue("?????????");
  await page.getByLabel("Working name").fill(`Project ${id}`);
  await page.getByLabel("Protocol number").fill(protocolNr);
  await expect(code).toHaveValue(`?????????${id.slice(-3)}`);
  await choose(page, "CRO", "Nordic Trials (NRT)");
  await expect(code).toHaveValue(`NRT??????${id.slice(-3)}`);
  await choose(page, "Sponsor", "Helix Biotech (HLX)");
  await expect(code).toHaveValue(`NRTHLX???${id.slice(-3)}`);
  await choose(page, "Therapy area", "Asthma (AST)", "Asthma");
  await expect(code).toHaveValue(`NRTHLXAST${id.slice(-3)}`);
  await choose(page, "Status", "RECRUITING");
  await choose(page, "Phase", "II");
  await page.getByRole("combobox", { name: "Sites" }).click();
  await page.getByRole("option", { name: /^BUD - / }).click();
  await page.getByRole("option", { name: /^WAW - / }).click();
  await page.keyboard.press("Escape");
  await expect(tab(page, "Basic")).toHaveAccessibleName("Basic");

  // Details.
  await tab(page, "Details").click();
  await page.getByLabel("Long name").fill(`Long name ${id}`);
  await page.getByLabel("Official title").fill("An open-label study of breathing well");
  await page.getByLabel("Official URL").fill(`https://trials.example.org/${id}`);
  await page.getByLabel("IP name").fill("Aeroxin");

  // Settings.
  await tab(page, "Settings").click();
  await page.getByRole("checkbox", { name: "Rescreen" }).click();
  await page.getByRole("checkbox", { name: "Hospitalisation" }).click();

  // Finance: numbers kept to 3 digits; a paid percentage over 100 is refused on this tab.
  await tab(page, "Finance").click();
  await page.getByLabel("Settlement days").fill("12345");
  await expect(page.getByLabel("Settlement days")).toHaveValue("123");
  // The same text gives the same value typed or pasted (fill): the fee keeps its decimals, a
  // whole-number field refuses them with a message (issue 15).
  await page.getByLabel("Payment days").pressSequentially("12.5");
  await expect(page.getByLabel("Payment days")).toHaveValue("12.5");
  await expect(page.getByText("Must be a whole number")).toBeVisible();
  await page.getByLabel("Payment days").fill("-5.5");
  await expect(page.getByText("Must not be negative")).toBeVisible();
  await page.getByLabel("Payment days").fill("45");
  await expect(page.getByText("Must not be negative")).toHaveCount(0);
  await page.getByLabel("Patient fee").pressSequentially("12.5");
  await expect(page.getByLabel("Patient fee")).toHaveValue("12.5");
  await page.getByLabel("Patient fee").fill("1500.50");
  await choose(page, "Currency", "EUR");
  await choose(page, "VAT (%)", "27");
  await page.getByLabel("Paid percentage").fill("150");
  await page.getByLabel("Monitored percentage").fill("100");

  // Staff has no content.
  await tab(page, "Staff").click();
  await expect(page.getByRole("tabpanel")).toBeEmpty();

  await page.getByRole("button", { name: "Save" }).click();
  await expect(tab(page, "Finance")).toHaveAttribute("aria-selected", "true");
  await expect(tab(page, "Finance")).toHaveAccessibleName("Finance (1 error)");
  await expect(page.getByText("Paid percentage cannot exceed 100")).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Please correct the errors!" })).toBeVisible();

  await page.getByLabel("Paid percentage").fill("90");
  await expect(tab(page, "Finance")).toHaveAccessibleName("Finance");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Project saved")).toBeVisible();
  await expect(page).toHaveURL(/\/projects\/prj-[0-9a-f-]+\/edit$/);
  await expect(page.getByRole("heading", { name: "Edit project" })).toBeVisible();
  await expect(page.getByText("Please correct the errors!")).toHaveCount(0);

  // The saved record reads back whole: a fresh load of the edit route and the detail page.
  await page.reload();
  await expect(page.getByLabel("Internal code")).toHaveValue(`NRTHLXAST${id.slice(-3)}`);
  await tab(page, "Finance").click();
  await expect(page.getByLabel("Paid percentage")).toHaveValue("90");
  await expect(page.getByLabel("Patient fee")).toHaveValue("1500.5");
  await page.goto(`/projects?searchTerm=${protocolNr}`);
  const row = page.getByRole("row").filter({ hasText: protocolNr });
  await expect(row).toContainText(`Project ${id}`);
  await expect(row).toContainText(`NRTHLXAST${id.slice(-3)}`);
  await expect(row).toContainText("II");
  await openView(row);
  // The record's own values (a finance summary beside them is a list of its own, issue 45).
  const details = page.locator("dl").first();
  for (const text of ["RECRUITING", "Nordic Trials", "Helix Biotech", "Asthma", "Aeroxin", "EUR", "1500.5"]) {
    await expect(details).toContainText(text);
  }
});

test("the seeded projects are listed, and a project its studies use cannot be removed", async ({ page }) => {
  await signIn(page, "/projects?searchTerm=TD-2025-001");
  const row = page.getByRole("row").filter({ hasText: "TD-2025-001" });
  await expect(row).toContainText("ACRMDPHFL001");
  await row.getByRole("button", { name: /Remove/ }).click();
  await page.getByRole("dialog", { name: "Remove item" }).getByRole("button", { name: "Yes" }).click();
  // The demo studies belong to it.
  await expect(page.getByText("Can not delete item: Project is still used by studies")).toBeVisible();
  await expect(row).toBeVisible();
});
