import { expect, type Page } from "@playwright/test";
import { openView, signIn, test, unique } from "./fixtures";

/** The value of a detail row, found by its label. */
const detailValue = (page: Page, label: string) => page.locator(`dt:text-is("${label}") + dd`);

test("create, edit and view a site: hints, code and barcode prefix clean-up, the country selector", async ({
  page,
}) => {
  const id = unique().toUpperCase();
  const code = `S${id.slice(0, 4)}`;
  const prefix = id.slice(1, 5);
  const name = `Site ${id} Research Centre`;
  await signIn(page, "/sites/create");
  await expect(page.getByRole("heading", { name: "Site" })).toBeVisible();
  await expect(page.getByText("2 to 5 characters, unique")).toBeVisible();
  await expect(
    page.getByText("2 to 4 characters, letters and numbers only, a separator is added automatically"),
  ).toBeVisible();

  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Name is required", { exact: true })).toBeVisible();
  await expect(page.getByText("Short name is required")).toBeVisible();
  await expect(page.getByText("Code is required")).toBeVisible();

  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Short name").fill(`Site ${id}`);
  await page.getByLabel("Code", { exact: true }).fill(`${code.toLowerCase()}XYZ`);
  await expect(page.getByLabel("Code", { exact: true })).toHaveValue(code);
  // Letters and numbers only, 4 at most, a hyphen inside dropped, typed or pasted alike (issue 15).
  await page
    .getByLabel("Barcode prefix")
    .pressSequentially(`${prefix.slice(0, 2).toLowerCase()}-_!${prefix.slice(2).toLowerCase()}X`);
  await expect(page.getByLabel("Barcode prefix")).toHaveValue(prefix);
  await page.getByLabel("Barcode prefix").fill(`${prefix.slice(0, 2)}-${prefix.slice(2)}X`);
  await expect(page.getByLabel("Barcode prefix")).toHaveValue(prefix);
  await page.getByLabel("Address").fill("Fő utca 1.");
  await page.getByLabel("City").fill("Turku");

  // The country selector: frequent countries first, then All countries; search and its empty text.
  const country = page.getByLabel("Country");
  await expect(country).toContainText("Select a country ...");
  await country.click();
  const options = page.getByRole("option");
  await expect(options.first()).toHaveText("Hungary");
  expect((await options.allTextContents()).slice(0, 6)).toEqual([
    "Hungary",
    "Austria",
    "Germany",
    "Poland",
    "United States",
    expect.any(String),
  ]);
  await expect(page.getByText("All countries")).toBeVisible();
  const search = page.getByPlaceholder("Search country ...");
  await search.fill("Atlantis");
  await expect(page.getByText("No country found")).toBeVisible();
  await search.fill("finl");
  await page.getByRole("option", { name: "Finland" }).click();
  await expect(country).toContainText("Finland");

  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Site created")).toBeVisible();
  await expect(page).toHaveURL(/\/sites\/site-[0-9a-f-]+\/edit$/);
  // The separator is added on save.
  await expect(page.getByLabel("Barcode prefix")).toHaveValue(`${prefix}-`);

  await page.getByLabel("City").fill("Helsinki");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Site updated")).toBeVisible();

  await page.goto(`/sites?searchTerm=${id}`);
  await expect(page.getByRole("heading", { name: "Sites" })).toBeVisible();
  for (const title of ["Id", "Name", "Short name", "Code", "Country", "City"])
    await expect(page.getByRole("columnheader", { name: title, exact: true })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(code);
  await expect(row).toContainText("FI");
  await expect(row).toContainText("Helsinki");
  await openView(row);
  await expect(detailValue(page, "Name")).toHaveText(name);
  await expect(detailValue(page, "Code")).toHaveText(code);
  await expect(detailValue(page, "Barcode prefix")).toHaveText(`${prefix}-`);
  await expect(detailValue(page, "Address")).toHaveText("Fő utca 1.");
  await expect(detailValue(page, "City")).toHaveText("Helsinki");
  await expect(detailValue(page, "Country")).toHaveText("Finland (FI)");

  // The code is unique: a second site with it is refused on the Code field.
  await page.goto("/sites/create");
  await page.getByLabel("Name", { exact: true }).fill(`${name} two`);
  await page.getByLabel("Short name").fill(`Two ${id}`);
  await page.getByLabel("Code", { exact: true }).fill(code);
  await page.getByLabel("Barcode prefix").fill(`Q${id.slice(0, 3)}`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Code must be unique")).toBeVisible();
});

test("a staff user's site selector lists only their assigned site; the administrator's lists all", async ({
  browser,
}) => {
  const staff = await browser.newPage();
  const response = await staff.request.post("/api/auth", {
    data: { username: "staff@example.com", password: "staff1234" },
  });
  expect(response.ok()).toBeTruthy();
  await staff.goto("/");
  await staff.getByTitle("Active site").click();
  const mine = staff.getByRole("list", { name: "Sites" }).getByRole("listitem");
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText("BUD");
  await expect(mine).toContainText("Budapest CRC");
  await mine.getByRole("button").click();
  await expect(staff.getByTitle("Active site")).toHaveText("BUD - Budapest CRC");
  // Staff read the sites but cannot add one.
  await staff.goto("/sites");
  await expect(staff.getByRole("row").filter({ hasText: "Vienna TC" })).toBeVisible();
  await expect(
    staff.getByRole("link", { name: "Add" }).or(staff.getByRole("button", { name: "Add" })),
  ).toHaveCount(0);
  await staff.close();

  const admin = await browser.newPage();
  await signIn(admin, "/");
  await admin.getByTitle("Active site").click();
  const all = admin.getByRole("list", { name: "Sites" }).getByRole("listitem");
  for (const code of ["BUD", "VIE", "WAW"]) await expect(all.filter({ hasText: code })).toHaveCount(1);
  await admin.close();
});
