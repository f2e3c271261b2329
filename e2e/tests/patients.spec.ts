import { chooseSite, expect, giveReason, signIn, staff, test, unique } from "./fixtures";

test("without a chosen site the patient screens ask for one and show nothing else", async ({ page }) => {
  // A fresh browser context has no site chosen.
  await signIn(page, "/patients");
  await expect(page.getByText("Please select a site first")).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  await page.goto("/patients/create");
  await expect(page.getByText("Please select a site first")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Add Patient" })).toHaveCount(0);
  await expect(page.getByLabel("First name")).toHaveCount(0);
});

test("create a patient with two contacts and an address, see the barcode, edit with the guard, toggle inactive", async ({
  page,
}) => {
  const lastName = `Kovács${unique()}`;
  await signIn(page, "/patients");
  await chooseSite(page, "BUD");
  await expect(page.getByRole("heading", { name: "Patients" })).toBeVisible();
  for (const title of ["Id", "Barcode", "Name", "Birth date", "SSN", "Phone", "Study", "Status"])
    await expect(page.getByRole("columnheader", { name: title })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "BUD-0000" }).first()).toBeVisible();

  await page.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("heading", { name: "Add Patient" })).toBeVisible();
  // Neither sex is chosen for a new patient (UNK).
  await expect(page.getByRole("radio", { name: "Male", exact: true })).not.toBeChecked();
  await expect(page.getByRole("radio", { name: "Female" })).not.toBeChecked();
  await expect(page.getByLabel("Barcode")).toHaveAttribute("readonly", "");

  // The validator's messages before anything is sent.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("First name is required")).toBeVisible();
  await expect(page.getByText("Last name is required")).toBeVisible();

  await page.getByRole("radio", { name: "Female" }).check();
  await page.getByLabel("First name").fill("Réka");
  await page.getByLabel("Last name").fill(lastName);
  // An SSN of its own: a second patient with one is refused (issue 46), also when the test is retried.
  await page.getByLabel("SSN").fill(`9${String(Date.now()).slice(-8)}`);
  await page.getByLabel("Mother name").fill("Nagy Ilona");
  await page.getByLabel("Birth city").fill("Szeged");
  const birthDate = page.getByLabel("Birth date");
  await birthDate.pressSequentially("19850312");
  await expect(birthDate).toHaveValue("1985-03-12");

  // Contacts: Add is disabled until the first has a value; the first cannot be removed.
  const addContact = page.getByRole("button", { name: "Add contact" });
  await expect(addContact).toBeDisabled();
  await expect(page.getByRole("button", { name: "Remove contact 1" })).toHaveCount(0);
  const phone = page.getByRole("textbox", { name: "Contact 1 value" });
  await phone.fill("0036 30 555 1234");
  await phone.blur();
  await expect(phone).toHaveValue("+36 30 555 1234");
  await addContact.click();
  await page.getByRole("combobox", { name: "Contact 2 type" }).click();
  await page.getByRole("option", { name: "Email" }).click();
  await page.getByRole("textbox", { name: "Contact 2 value" }).fill("reka@example.com");
  await page.getByRole("textbox", { name: "Contact 2 notes" }).fill("work");
  await expect(page.getByRole("button", { name: "Remove contact 2" })).toBeVisible();

  // The address block with the country selector.
  const address = page.getByRole("region", { name: "Address" });
  await address.getByLabel("Country").click();
  await page.getByRole("option", { name: "Hungary" }).click();
  await address.getByLabel("Postal code").fill("6720");
  await address.getByLabel("City").fill("Szeged");
  await address.getByLabel("Street address").fill("Dóm tér 1.");

  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Patient created")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Edit Patient" })).toBeVisible();
  await expect(page.getByLabel("Barcode")).toHaveValue(/^BUD-\d{6}$/);
  const barcode = await page.getByLabel("Barcode").inputValue();
  await expect(page.getByRole("textbox", { name: "Contact 2 value" })).toHaveValue("reka@example.com");

  // Editing and leaving asks first.
  await page.getByLabel("Mother name").fill("Nagy Erzsébet");
  await expect(page.getByRole("button", { name: "Reset" })).toBeVisible();
  await page.getByRole("button", { name: "Back" }).click();
  const guard = page.getByRole("dialog", { name: "Unsaved Changes" });
  await expect(guard).toContainText(
    "You have unsaved changes. Are you sure you want to leave without saving?",
  );
  await guard.getByRole("button", { name: "Stay on Page" }).click();
  await expect(page.getByRole("heading", { name: "Edit Patient" })).toBeVisible();

  // The inactivity reason shows only when inactive.
  const reason = page.getByLabel("Inactivity reason");
  await expect(reason).toHaveCount(0);
  await page.getByLabel("Status").click();
  await page.getByRole("option", { name: "Inactive" }).click();
  await expect(reason).toBeVisible();
  await reason.fill("Moved abroad");
  await page.getByRole("button", { name: "Save" }).click();
  // An edit of a patient says why (issue 46, point 1); the detail's history shows it.
  await giveReason(page, "Source corrected");
  await expect(page.getByText("Patient updated")).toBeVisible();

  // The list shows the new patient: name last then first, first phone, red Inactive.
  await page.goto(`/patients?searchTerm=${encodeURIComponent(lastName)}`);
  const row = page.getByRole("row").filter({ hasText: barcode });
  await expect(row).toContainText(`${lastName} Réka`);
  await expect(row).toContainText("1985-03-12");
  await expect(row).toContainText("+36 30 555 1234");
  await expect(row).toContainText("Inactive");

  // The detail shows every part.
  await row.getByRole("link", { name: /^View / }).click();
  await expect(page.getByRole("heading", { name: "Patient" })).toBeVisible();
  for (const text of [barcode, "Nagy Erzsébet", "reka@example.com", "Dóm tér 1.", "Hungary", "Moved abroad"])
    await expect(page.getByText(text, { exact: false }).first()).toBeVisible();
  await expect(page.getByText("Reason: Source corrected")).toBeVisible();
  // Contacts by their type's name, as the form offers them.
  await expect(
    page.getByRole("definition").getByRole("listitem").filter({ hasText: "+36 30 555 1234" }),
  ).toHaveText("Phone +36 30 555 1234");
  await expect(
    page.getByRole("definition").getByRole("listitem").filter({ hasText: "reka@example.com" }),
  ).toHaveText("Email reka@example.com — work");
});

test("a patient is found by a name typed without its accents", async ({ page }) => {
  await signIn(page, "/", staff);
  await chooseSite(page, "BUD");
  await page
    .getByRole("navigation", { name: "Main menu" })
    .getByRole("link", { name: "Patients", exact: true })
    .click();
  await page.getByRole("searchbox", { name: "Search" }).fill("kovacs anna");
  await expect(page).toHaveURL(/searchTerm=kovacs/);
  const table = page.getByRole("table", { name: "Patients" });
  await expect(table.getByRole("row").filter({ hasText: "BUD-000001" })).toContainText("Kovács Anna");
  await expect(
    table
      .getByRole("row")
      .filter({ has: page.getByRole("cell") })
      .filter({ hasNotText: "Kovács" }),
  ).toHaveCount(0);
});
