import { choose, expect, openView, signIn, test } from "./fixtures";

const today = () => new Date().toISOString().slice(0, 10);

test("create a study: the working name follows project and variant; dates typed and picked", async ({
  page,
}) => {
  await signIn(page, "/studies/create");
  await expect(page.getByRole("heading", { name: /Study/ })).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  for (const message of [
    "Project is required",
    "Working name is required",
    "Variant is required",
    "FPFV is required",
    "LPFV is required",
    "LPLV is required",
    "Status is required",
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }

  const workingName = page.getByLabel("Working name");
  await choose(page, "Project", /HEART-FAIL III/);
  await choose(page, "Variant", "VARIANT-1");
  await expect(workingName).toHaveValue("TD-2025-001_VARIANT-1");
  await choose(page, "Project", /LUNG-TARGET II/);
  await expect(workingName).toHaveValue("TD-2025-002_VARIANT-1");
  await choose(page, "Variant", "SECONDARY");
  await expect(workingName).toHaveValue("TD-2025-002_SECONDARY");

  // Typing: digits only, the hyphens come by themselves.
  const fpfv = page.getByLabel("FPFV");
  await fpfv.pressSequentially("2025x0901");
  await expect(fpfv).toHaveValue("2025-09-01");

  // Clicking: the calendar opens on the current month, Monday first.
  // Each calendar button is named after its field (issue 15).
  await page.getByRole("button", { name: "Open calendar for LPFV", exact: true }).click();
  const calendar = page.getByRole("dialog", { name: "LPFV" });
  await expect(calendar.locator("th").first()).toHaveText("Mo");
  await calendar.getByRole("button", { name: / 15th, / }).click();
  await expect(page.getByLabel("LPFV")).toHaveValue(`${today().slice(0, 8)}15`);

  // Dates out of order are refused with a message (issue 15).
  await page.getByLabel("LPLV").pressSequentially("20250101");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("LPLV cannot be before LPFV")).toBeVisible();

  // Clicking with the year and month dropdowns, then a day by keyboard.
  await page.getByRole("button", { name: "Open calendar for LPLV", exact: true }).click();
  const lplvCalendar = page.getByRole("dialog", { name: "LPLV" });
  await lplvCalendar
    .getByRole("combobox", { name: /year/i })
    .selectOption(String(Number(today().slice(0, 4)) + 2));
  await lplvCalendar.getByRole("combobox", { name: /month/i }).selectOption({ label: "March" });
  await lplvCalendar.getByRole("button", { name: / 31st, / }).click();
  await expect(page.getByLabel("LPLV")).toHaveValue(`${Number(today().slice(0, 4)) + 2}-03-31`);

  await choose(page, "Status", "TO START");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Study created")).toBeVisible();
  await expect(page).toHaveURL(/\/studies\/std-[0-9a-f-]+\/edit$/);

  await page.goto("/studies?searchTerm=TD-2025-002_SECONDARY");
  const row = page.getByRole("row").filter({ hasText: "TD-2025-002_SECONDARY" });
  await expect(row).toContainText("SECONDARY");
  await expect(row).toContainText("2025-09-01");
  await openView(row);
  await expect(page.getByText("LUNG-TARGET II", { exact: true })).toBeVisible();
  await expect(page.getByText("TO START", { exact: true })).toBeVisible();
});

test("create visits: type 50 is disabled once the study has a randomisation visit", async ({ page }) => {
  // A study without visits yet.
  await signIn(page, "/studies/create");
  await choose(page, "Project", /HEART-FAIL III/);
  await choose(page, "Variant", "VARIANT-2");
  await page.getByLabel("FPFV").fill("2025-01-06");
  await page.getByLabel("LPFV").fill("2025-12-22");
  await page.getByLabel("LPLV").fill("2026-06-29");
  await choose(page, "Status", "RECRUITING");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Study created")).toBeVisible();

  await page.goto("/visits/create");
  await page.getByRole("button", { name: "Save" }).click();
  for (const message of ["Study is required", "Visit type is required", "Visit name is required"]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await choose(page, "Study", "TD-2025-001_VARIANT-2");
  await page.getByLabel("Visit type").click();
  await expect(page.getByRole("option", { name: "50 Randomisation" })).not.toHaveAttribute(
    "aria-disabled",
    "true",
  );
  await page.getByRole("option", { name: "50 Randomisation" }).click();
  await page.getByLabel("Visit name").fill("Randomisation");
  await page.getByLabel("Mandatory").click();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Visit created")).toBeVisible();
  await expect(page).toHaveURL(/\/visits\/visit-[0-9a-f-]+\/edit$/);
  // Editing the randomisation visit itself keeps type 50 choosable.
  await page.getByLabel("Visit type").click();
  await expect(page.getByRole("option", { name: "50 Randomisation" })).not.toHaveAttribute(
    "aria-disabled",
    "true",
  );
  await page.keyboard.press("Escape");

  await page.goto("/visits/create");
  await choose(page, "Study", "TD-2025-001_VARIANT-2");
  await page.getByLabel("Visit type").click();
  await expect(page.getByRole("option", { name: "50 Randomisation" })).toHaveAttribute(
    "aria-disabled",
    "true",
  );
  await expect(page.getByText("This study already has its randomisation visit (type 50).")).toBeVisible();
  await page.getByRole("option", { name: "60 Control" }).click();
  await page.getByLabel("Visit name").fill("Week 4");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Visit created")).toBeVisible();

  await page.goto("/visits?searchTerm=TD-2025-001_VARIANT-2");
  const randomisation = page.getByRole("row").filter({ hasText: "50 Randomisation" });
  await expect(randomisation).toContainText("TD-2025-001_VARIANT-2");
  await expect(randomisation.getByRole("img", { name: "Mandatory" })).toBeVisible();
  const week4 = page.getByRole("row").filter({ hasText: "Week 4" });
  await expect(week4.getByRole("img", { name: "Mandatory" })).toHaveCount(0);
  await openView(randomisation);
  await expect(page.getByText("TD-2025-001", { exact: true })).toBeVisible();
  await expect(page.getByText("Yes", { exact: true })).toBeVisible();
});
