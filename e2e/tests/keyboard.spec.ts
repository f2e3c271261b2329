import type { Locator } from "@playwright/test";
import { admin, expect, type Page, signIn, staff, test, unique } from "./fixtures";

/**
 * A person using only the keyboard (design §5): no click and no fill in these tests, only Tab,
 * typing, arrows, Enter, Escape and Ctrl+S.
 */

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails when it is not reachable. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
  }
  await expect(target, `reachable by ${backwards ? "Shift+Tab" : "Tab"}`).toBeFocused({ timeout: 1 });
}

test("sign in, open a list from the menu, add a therapy category and cancel a removal", async ({ page }) => {
  const name = `Keyboard ${unique()}`;
  await page.goto("/login");
  // The e-mail field has the focus when the page opens.
  await expect(page.getByLabel("E-mail")).toBeFocused();
  await page.keyboard.type(admin.email);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
  await page.keyboard.type(admin.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);

  await tabTo(page, page.getByRole("link", { name: "Therapy categories" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/therapy-categories$/);
  await expect(page.getByRole("heading", { name: "Therapy categories" })).toBeVisible();

  const add = page.getByRole("link", { name: "Add" }).or(page.getByRole("button", { name: "Add" }));
  await tabTo(page, add);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/therapy-categories\/create$/);

  // Enter in a field saves (Save is enabled a moment after the form opens, spec §2.3); a refused save
  // puts the focus on the first field in error.
  await expect(page.getByRole("button", { name: "Save" })).toBeEnabled();
  await tabTo(page, page.getByLabel("Name"));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(page.getByLabel("Name")).toBeFocused();
  await page.keyboard.type("Ke");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Name must be at least 3 characters long")).toBeVisible();
  await expect(page.getByLabel("Name")).toBeFocused();
  await page.keyboard.press("Control+a");
  await page.keyboard.type(name);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Code")).toBeFocused();
  await page.keyboard.type(`k${name.slice(-2)}`);
  // Ctrl+S saves too.
  await page.keyboard.press("Control+s");
  await expect(page.getByText("Therapy category created")).toBeVisible();
  await expect(page).toHaveURL(/\/therapy-categories\/thc-[0-9a-f-]+\/edit$/);

  // Back to the list, to the row's Remove button, and Escape cancels the dialog.
  await tabTo(page, page.getByRole("button", { name: "Back" }), { backwards: true });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/therapy-categories$/);
  const search = page.getByRole("searchbox", { name: "Search" }).or(page.getByLabel("Search"));
  await tabTo(page, search.first());
  await page.keyboard.type(name);
  const remove = page.getByRole("button", { name: `Remove ${name}` });
  await expect(remove).toHaveCount(1);
  await tabTo(page, remove);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Remove item" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(name);
  // The dialog keeps the focus while open: Tab and Shift+Tab cycle inside it.
  for (const key of ["Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
    await page.keyboard.press(key);
    await expect(dialog.locator(":focus")).toHaveCount(1);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(1);
});

test("pick an option of a searchable select with the arrows and Enter", async ({ page }) => {
  await page.request.post("/api/auth", { data: { username: admin.email, password: admin.password } });
  await page.goto("/therapy-areas/create");
  const select = page.getByRole("combobox", { name: "Therapy Category" });
  await tabTo(page, select);
  await expect(select).toContainText("Select...");
  await page.keyboard.press("Enter");
  const options = page.getByRole("option");
  await expect(options.first()).toBeVisible();
  const second = (await options.nth(1).innerText()).trim();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(options).toHaveCount(0);
  await expect(select).toContainText(second);
  // The focus comes back to the select, so the next Tab goes on through the form.
  await expect(select).toBeFocused();

  // Arrows open it too, and Escape closes it without changing the choice.
  await page.keyboard.press("ArrowDown");
  await expect(options.first()).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Escape");
  await expect(options).toHaveCount(0);
  await expect(select).toContainText(second);
  await expect(select).toBeFocused();
});

test("a patient typed into the visit form's Patient selector is chosen with Enter, accents or not", async ({
  page,
}) => {
  await page.request.post("/api/auth", { data: { username: staff.email, password: staff.password } });
  await page.goto("/patient-visits/create");
  const patient = page.getByRole("combobox", { name: "Patient", exact: true });
  await tabTo(page, patient);
  await page.keyboard.press("Enter");
  await page.keyboard.type("toth");
  // The server's answer for the typed name: its one match is highlighted as it comes.
  await expect(page.getByRole("option")).toHaveText(["Tóth Katalin (BUD-000003)"]);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("option")).toHaveCount(0);
  await expect(patient).toContainText("Tóth Katalin (BUD-000003)");
  await expect(patient).toBeFocused();
});

test("Record visit pressed on the worklist hands the focus to the visit form's heading, one Tab from Back", async ({
  page,
}) => {
  await page.goto("/login");
  await expect(page.getByLabel("E-mail")).toBeFocused();
  await page.keyboard.type(staff.email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(staff.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
  // The coordinator's one site is the active site at once.
  await expect(page.getByTitle("Active site")).toContainText("BUD - ");

  await tabTo(
    page,
    page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Worklist" }),
  );
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/worklist$/);
  // A menu link is still there after it is followed: the focus stays on it.
  await expect(
    page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Worklist" }),
  ).toBeFocused();

  const record = page.getByRole("link", { name: /^Record visit / }).first();
  await tabTo(page, record);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/patient-visits\/.+/);
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(/^(Add new visit|Modify patient visit)$/);
  await expect(heading).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Back" })).toBeFocused();
  // Back leaves the form: the worklist's heading has the focus again.
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/worklist$/);
  await expect(page.getByRole("heading", { name: "Worklist" })).toBeFocused();
});

test("Skip to content is the first stop of the keyboard and takes the focus past the menu to the screen", async ({
  page,
}) => {
  await signIn(page, "/therapy-categories");
  await expect(page.getByRole("heading", { name: "Therapy categories" })).toBeVisible();
  await page.locator("body").focus();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
});
