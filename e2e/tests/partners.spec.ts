import { expect, type Page } from "@playwright/test";
import { openView, signIn, test, unique } from "./fixtures";

const detailValue = (page: Page, label: string) => page.locator(`dt:text-is("${label}") + dd`);

test("create, edit and view a partner: hint, code clean-up, CRO and amber Sponsor badges", async ({
  page,
}) => {
  const id = unique();
  const name = `Partner ${id}`;
  const code = id.slice(0, 3).toUpperCase();
  await signIn(page, "/partners/create");
  await expect(page.getByRole("heading", { name: "Partner" })).toBeVisible();
  await expect(page.getByText("the code of the partner, 2 or 3 characters, unique")).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(page.getByText("Code is required")).toBeVisible();

  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Code").fill(`${id}`);
  await expect(page.getByLabel("Code")).toHaveValue(code);
  await expect(page.getByRole("checkbox", { name: "CRO" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Sponsor" })).not.toBeChecked();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Partner created")).toBeVisible();
  await expect(page).toHaveURL(/\/partners\/prt-[0-9a-f-]+\/edit$/);

  // Neither flag: the Type cell stays empty.
  await page.goto(`/partners?searchTerm=${id}`);
  for (const title of ["ID", "Name", "Code", "Type"])
    await expect(page.getByRole("columnheader", { name: title, exact: true })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.getByRole("cell").nth(3)).toHaveText("");

  await row
    .getByRole("link", { name: /Edit/ })
    .or(row.getByRole("button", { name: /Edit/ }))
    .first()
    .click();
  await page.getByRole("checkbox", { name: "CRO" }).check();
  await page.getByText("Sponsor", { exact: true }).click();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Partner updated")).toBeVisible();

  await page.goto(`/partners?searchTerm=${id}`);
  const flagged = page.getByRole("row").filter({ hasText: name });
  await expect(flagged.getByText("CRO", { exact: true })).toBeVisible();
  const sponsor = flagged.getByText("Sponsor", { exact: true });
  await expect(sponsor).toBeVisible();
  await expect(sponsor).toHaveClass(/amber/);
  await openView(flagged);
  await expect(detailValue(page, "ID")).toHaveText(/^\d+$/);
  await expect(detailValue(page, "Name")).toHaveText(name);
  await expect(detailValue(page, "Code")).toHaveText(code);
  await expect(detailValue(page, "CRO")).toHaveText("Yes");
  await expect(detailValue(page, "Sponsor")).toHaveText("Yes");

  // The code is unique on the server.
  await page.goto("/partners/create");
  await page.getByLabel("Name").fill(`${name} again`);
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Code must be unique")).toBeVisible();
});

test("the seeded partners show their badges: a CRO, a sponsor and one that is both", async ({ page }) => {
  await signIn(page, "/partners?pagesize=50");
  const row = (name: string) => page.getByRole("row").filter({ hasText: name });
  await expect(row("Acme Clinical Research").getByText("CRO", { exact: true })).toBeVisible();
  await expect(row("Acme Clinical Research").getByText("Sponsor", { exact: true })).toHaveCount(0);
  await expect(row("Medicor Pharma").getByText("Sponsor", { exact: true })).toBeVisible();
  await expect(row("Medicor Pharma").getByText("CRO", { exact: true })).toHaveCount(0);
  await expect(row("Unity Research").getByText("CRO", { exact: true })).toBeVisible();
  await expect(row("Unity Research").getByText("Sponsor", { exact: true })).toBeVisible();
});
