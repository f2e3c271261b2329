import { expect, openView, signIn, test, unique } from "./fixtures";

test("create a therapy area in a category, view it and remove it", async ({ page }) => {
  const id = unique();
  const name = `Area ${id}`;
  await signIn(page, "/therapy-areas/create");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(page.getByText("Code is required")).toBeVisible();
  await expect(page.getByText("Therapy Category is required")).toBeVisible();

  await page.getByLabel("Name").fill(name);
  // Z: no demo area's code starts with it (a random "AST" once met Asthma's and was refused).
  await page.getByLabel("Code").fill(`z${id}`);
  await expect(page.getByLabel("Code")).toHaveValue(`Z${id.slice(0, 2).toUpperCase()}`);
  // The searchable select: placeholder, search box (more than 5 categories), nothing found.
  const category = page.getByLabel("Therapy Category");
  await expect(category).toContainText("Select...");
  await category.click();
  const search = page.getByPlaceholder("Search...");
  await search.fill("no such category at all");
  await expect(page.getByText("Nothing found")).toBeVisible();
  await search.fill("Oncology");
  await page.getByRole("option", { name: "Oncology" }).click();
  await expect(category).toContainText("Oncology");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Therapy area created")).toBeVisible();
  await expect(page).toHaveURL(/\/therapy-areas\/tha-[0-9a-f-]+\/edit$/);

  await page.goto(`/therapy-areas?searchTerm=${id}`);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Oncology");
  await openView(row);
  await expect(page.getByText(/Oncology \(\d+\)/)).toBeVisible();

  await page.goto(`/therapy-areas?searchTerm=${id}`);
  await page
    .getByRole("row")
    .filter({ hasText: name })
    .getByRole("button", { name: /Remove/ })
    .click();
  await page.getByRole("dialog", { name: "Remove item" }).getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("Item deleted")).toBeVisible();
});

test("removing a category that areas still use is refused with a message", async ({ page }) => {
  await signIn(page, "/therapy-categories?searchTerm=Oncology");
  await page
    .getByRole("row")
    .filter({ hasText: "Oncology" })
    .first()
    .getByRole("button", { name: /Remove/ })
    .click();
  await page.getByRole("dialog", { name: "Remove item" }).getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText(/Can not delete item: /)).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Oncology" }).first()).toBeVisible();
});

test("the therapy areas list pages, searches and sorts through the query string", async ({ page }) => {
  await signIn(page, "/therapy-areas?page=1&pagesize=10");
  const pager = page.getByText(/^Showing 1 to 10 of \d+ entries$/);
  await expect(pager).toBeVisible();
  const total = Number((await pager.textContent())?.match(/of (\d+)/)?.[1]);
  expect(total).toBeGreaterThanOrEqual(25);
  await expect(page.getByRole("row")).toHaveCount(11);

  await page.getByRole("button", { name: "Page 2" }).click();
  await expect(page).toHaveURL(/page=2/);
  // Other tests add therapy areas at the same time, so the total may have grown since page 1.
  await expect(page.getByText(/^Showing 11 to 20 of \d+ entries$/)).toBeVisible();

  // Sorting by name descending puts the last name first.
  await page.getByRole("button", { name: "Name", exact: true }).click();
  await expect(page).toHaveURL(/order=name/);
  await page.getByRole("button", { name: "Name", exact: true }).click();
  await expect(page).toHaveURL(/direction=desc/);
  await expect(page).toHaveURL(/page=1|^(?!.*page=2)/);
  // The rows follow the URL once the new page has loaded: wait until they read in descending order.
  const cells = page.getByRole("row").locator("td:nth-child(2)");
  await expect
    .poll(async () => {
      const names = await cells.allTextContents();
      const sorted = [...names].sort((a, b) => b.localeCompare(a, "en", { sensitivity: "base" }));
      return names.length > 1 && names.every((name, i) => name === sorted[i]);
    })
    .toBe(true);

  // Search narrows the list; a search for nothing shows the pager hidden and an empty table.
  await page.getByLabel("Search").fill("Oncology");
  await expect(page).toHaveURL(/searchTerm=Oncology/);
  await expect(page.getByRole("row").filter({ hasText: "Oncology" }).first()).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Pagination" })).toHaveCount(0);
});
