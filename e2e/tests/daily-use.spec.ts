import { shortTimeoutURL } from "../playwright.config";
import {
  admin,
  chooseSite,
  expect,
  newAssignedPatient,
  type Page,
  signIn,
  staff,
  test,
  unique,
} from "./fixtures";

/** What a coordinator trips over in daily use (issue 15), walked as a person would. */

const select = (page: Page, label: string) => page.getByRole("combobox", { name: label, exact: true });

test("the visit editor's required errors and its error bar go as patient, study and visit are chosen", async ({
  page,
}) => {
  const lastName = `Hibás${unique()}`;
  await signIn(page, "/patient-visits/create");
  const { studyName } = await newAssignedPatient(page, lastName);
  await chooseSite(page, "BUD");
  await expect(page.getByRole("heading", { name: "Add new visit" })).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  const bar = page.getByRole("form", { name: "Add new visit" }).getByRole("alert");
  await expect(bar).toContainText("Patient is required");

  await select(page, "Patient").click();
  await page.getByPlaceholder("Search...").fill(lastName);
  await page.getByRole("option", { name: new RegExp(`^${lastName} Bence`) }).click();
  await expect(page.getByText("Patient is required", { exact: true })).toHaveCount(0);
  await select(page, "Study").click();
  await page.getByRole("option", { name: new RegExp(studyName) }).click();
  await expect(page.getByText("Study is required", { exact: true })).toHaveCount(0);
  await select(page, "Visit").click();
  await page.getByRole("option", { name: /^Week 2(?!\d)/ }).click();
  await expect(page.getByText("Visit is required", { exact: true })).toHaveCount(0);
  // The form's error bar is gone (the toast of the failed save is another alert).
  await expect(page.getByRole("form", { name: "Add new visit" }).getByRole("alert")).toHaveCount(0);
});

test("a staff user with one site works in it at once; a list they may not see says so", async ({ page }) => {
  await signIn(page, "/patients", staff);
  await expect(page.getByTitle("Active site")).toHaveText("BUD - Budapest CRC");
  await expect(page.getByRole("heading", { name: "Patients" })).toBeVisible();
  await expect(page.getByText("Please select a site first")).toHaveCount(0);

  await page.goto("/users");
  await expect(page.getByText("You do not have permission to see these records.")).toBeVisible();
  await expect(page.getByText("No records found")).toHaveCount(0);
});

test("a staff user opening reference data to edit finds every field read-only and no Reset", async ({
  page,
}) => {
  const response = await page.request.post("/api/auth", {
    data: { username: staff.email, password: staff.password },
  });
  const headers = { Authorization: `Bearer ${(await response.json()).data.accessToken}` };
  const category = (
    await (await page.request.get("/api/therapy-categories?page=1&pagesize=1", { headers })).json()
  ).data.items[0];
  await page.goto(`/therapy-categories/${category.uuid}/edit`);
  const name = page.getByLabel("Name");
  await expect(name).toHaveValue(category.name);
  await expect(page.getByText("Only administrators can change these records.")).toBeVisible();
  await expect(name).toBeDisabled();
  await expect(page.getByLabel("Code")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Reset" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
});

test("a signed-out public detail page does not ask for the history", async ({ page, request }) => {
  const login = await request.post("/api/auth", {
    data: { username: admin.email, password: admin.password },
  });
  const headers = { Authorization: `Bearer ${(await login.json()).data.accessToken}` };
  const category = (
    await (await request.get("/api/therapy-categories?page=1&pagesize=1", { headers })).json()
  ).data.items[0];
  const auditCalls: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/audit")) auditCalls.push(r.url());
  });
  await page.goto(`/therapy-categories/${category.uuid}`);
  await expect(page.getByText(category.name, { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
  expect(auditCalls).toEqual([]);
});

test("a new patient: a typed birth date outside the age bounds, an e-mail that is not one, a local phone", async ({
  page,
}) => {
  await signIn(page, "/patients/create");
  await chooseSite(page, "BUD");
  await page.getByLabel("First name").fill("Réka");
  await page.getByLabel("Last name").fill(`Kovács${unique()}`);
  const birthDate = page.getByLabel("Birth date");
  await birthDate.pressSequentially("20301231");
  await expect(birthDate).toHaveValue("2030-12-31");
  // The site (BUD) is in Hungary: 06 is the trunk prefix there.
  const phone = page.getByRole("textbox", { name: "Contact 1 value" });
  await phone.fill("06 30 555 1234");
  await phone.blur();
  await expect(phone).toHaveValue("+36 30 555 1234");
  await page.getByRole("button", { name: "Add contact" }).click();
  await page.getByRole("combobox", { name: "Contact 2 type" }).click();
  await page.getByRole("option", { name: "Email" }).click();
  await page.getByRole("textbox", { name: "Contact 2 value" }).fill("not an email");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(
    page.getByText(/^Birth date must be between \d{4}-\d\d-\d\d and \d{4}-\d\d-\d\d \(age 18 to 100\)$/),
  ).toBeVisible();
  await expect(page.getByText("Email is not valid")).toBeVisible();

  await birthDate.fill("");
  await birthDate.pressSequentially("19850312");
  await page.getByRole("textbox", { name: "Contact 2 value" }).fill("reka@example.com");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Patient created")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Contact 1 value" })).toHaveValue("+36 30 555 1234");
});

test("signed out for inactivity, the logout page says so", async ({ page }) => {
  const response = await page.request.post(`${shortTimeoutURL}/api/auth`, {
    data: { username: admin.email, password: admin.password },
  });
  expect(response.ok()).toBeTruthy();
  await page.goto(`${shortTimeoutURL}/`);
  await expect(page).toHaveURL(/\/logout$/, { timeout: 15_000 });
  await expect(page.getByText("You have been logged out!")).toBeVisible();
  await expect(page.getByText("Your session ended because of inactivity.")).toBeVisible();
});
