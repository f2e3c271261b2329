import type { Page } from "@playwright/test";
import { expect, signIn, test, unique } from "./fixtures";

const tooShort = "Password is too short. It should be at least 8 characters.";

async function signInAs(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** Creates a user through the Users form and answers the new user's edit URL. */
async function createUser(
  page: Page,
  user: { email: string; first: string; last: string; password: string },
) {
  await page.goto("/users/create");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("First name").fill(user.first);
  await page.getByLabel("Last name").fill(user.last);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Password confirmation").fill(user.password);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("User created")).toBeVisible();
  await expect(page).toHaveURL(/\/users\/usr-[0-9a-f-]+\/edit$/);
  return page.url();
}

test("create, edit and view a user with sites; the password messages", async ({ page }) => {
  const id = unique();
  const email = `user.${id}@example.com`;
  await signIn(page, "/users/create");
  await expect(page.getByRole("heading", { name: /User/ })).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("First name is required")).toBeVisible();
  await expect(page.getByText("Last name is required")).toBeVisible();
  await expect(page.getByText("Email is required")).toBeVisible();
  await expect(page.getByText("Password is required")).toBeVisible();
  await expect(page.getByText("Password confirmation is required")).toBeVisible();

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("First name").fill("Erika");
  await page.getByLabel("Last name").fill(`Example ${id}`);
  const sites = page.getByRole("combobox", { name: "Sites" });
  await sites.click();
  await page.getByPlaceholder("Search...").fill("vie");
  await page.getByRole("option", { name: "VIE - Vienna TC" }).click();
  await page.getByPlaceholder("Search...").fill("");
  await page.getByRole("option", { name: "WAW - Warsaw MRS" }).click();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Remove VIE - Vienna TC" })).toBeVisible();

  const password = page.getByLabel("Password", { exact: true });
  await expect(password).toHaveAttribute("maxlength", "50");
  await password.fill("secret-one");
  await page.getByLabel("Password confirmation").fill("secret-two");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await password.fill("short");
  await page.getByLabel("Password confirmation").fill("short");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(tooShort)).toBeVisible();
  await password.fill("long-enough-1");
  await page.getByLabel("Password confirmation").fill("long-enough-1");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("User created")).toBeVisible();
  await expect(page).toHaveURL(/\/users\/usr-[0-9a-f-]+\/edit$/);

  // Edit: drop a site, keep the password by leaving it empty.
  await page.getByRole("button", { name: "Remove WAW - Warsaw MRS" }).click();
  await page.getByLabel("First name").fill("Erik");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("User updated")).toBeVisible();

  await page.goto(`/users?searchTerm=${id}`);
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText(`Erik Example ${id}`);
  await row.getByRole("link", { name: /View/ }).click();
  const value = (label: string) => page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("+ dd");
  await expect(value("Email")).toHaveText(email);
  await expect(value("Password")).toHaveText(/^Set, last changed \d{4}-\d{2}-\d{2}$/);
  await expect(value("Sites")).toHaveText("VIE - Vienna TC");
  await expect(value("Is active")).toHaveText("Yes");
  await expect(page.getByText("$argon2")).toHaveCount(0);

  // A clash of e-mails, whatever the case, is refused on the field.
  await createUser(page, {
    email: `dup.${id}@example.com`,
    first: "Dup",
    last: "One",
    password: "password-1",
  });
  await page.goto("/users/create");
  await page.getByLabel("Email").fill(`DUP.${id}@example.com`);
  await page.getByLabel("First name").fill("Dup");
  await page.getByLabel("Last name").fill("Two");
  await page.getByLabel("Password", { exact: true }).fill("password-1");
  await page.getByLabel("Password confirmation").fill("password-1");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Email is already in use")).toBeVisible();
});

test("create, edit and view a monitor", async ({ page }) => {
  const id = unique();
  const email = `monitor.${id}@example.com`;
  await signIn(page, "/monitors/create");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("First name is required")).toBeVisible();
  await expect(page.getByText("Password is required")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("First name").fill("Mona");
  await page.getByLabel("Last name").fill(`Lisa ${id}`);
  await page.getByLabel("Password", { exact: true }).fill("abc");
  await page.getByLabel("Password confirmation").fill("abd");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await page.getByLabel("Password confirmation").fill("abc");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(tooShort)).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("monitor-pass");
  await page.getByLabel("Password confirmation").fill("monitor-pass");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Monitor created")).toBeVisible();

  await page.getByLabel("Is active").click();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Monitor updated")).toBeVisible();

  await page.goto(`/monitors?searchTerm=${id}`);
  await expect(page.getByRole("columnheader", { name: "ID" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText(`Mona Lisa ${id}`);
  await row.getByRole("link", { name: /View/ }).click();
  const value = (label: string) => page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("+ dd");
  await expect(value("UUID")).toHaveText(/^mon-/);
  await expect(value("First name")).toHaveText("Mona");
  await expect(value("Last name")).toHaveText(`Lisa ${id}`);
  await expect(value("Is active")).toHaveText("No");
});

test("a user changes their own password from the user menu", async ({ page }) => {
  const id = unique();
  const email = `changer.${id}@example.com`;
  await signIn(page, "/");
  await createUser(page, { email, first: "Chang", last: `Er ${id}`, password: "first-password" });
  await page.goto("/logout");
  await expect(page.getByText("You have been logged out!")).toBeVisible();

  await signInAs(page, email, "first-password");
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/change-password$/);
  await page.getByLabel("Current password").fill("wrong-password");
  await page.getByLabel("New password", { exact: true }).fill("second-pass");
  await page.getByLabel("New password confirmation").fill("second-pazz");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByLabel("New password confirmation").fill("short");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(tooShort)).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("second-password");
  await page.getByLabel("New password confirmation").fill("second-password");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Current password is not correct")).toBeVisible();
  await page.getByLabel("Current password").fill("first-password");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Password changed")).toBeVisible();
  // Still signed in after a reload (this browser got a fresh session).
  await page.reload();
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();

  await page.goto("/logout");
  // Leaving before the sign-out finished would keep the session, and /login would then go home.
  await expect(page.getByText("You have been logged out!")).toBeVisible();
  await signInAs(page, email, "first-password");
  await expect(page.getByRole("alert")).toContainText("Invalid e-mail or password");
  await signInAs(page, email, "second-password");
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
});

test("a deactivated user cannot sign in", async ({ page }) => {
  const id = unique();
  const email = `leaver.${id}@example.com`;
  await signIn(page, "/");
  await createUser(page, { email, first: "Lea", last: `Ver ${id}`, password: "leaver-password" });
  await page.getByLabel("Is active").click();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("User updated")).toBeVisible();
  await page.goto("/logout");
  await expect(page.getByText("You have been logged out!")).toBeVisible();
  await signInAs(page, email, "leaver-password");
  await expect(page.getByRole("alert")).toContainText("Invalid e-mail or password");
  await expect(page).toHaveURL(/\/login$/);
});

test("staff see no Administration and the user screens refuse them", async ({ page }) => {
  await signInAs(page, "staff@example.com", "staff1234");
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
  await expect(page.getByRole("navigation").getByText("Administration")).toHaveCount(0);
  await page.goto("/users");
  await expect(page.getByText(/Can not load data: /).first()).toBeVisible();
});
