import {
  choose,
  chooseSite,
  expect,
  giveReason,
  newAssignedPatient,
  newPatient,
  signIn,
  test,
  unique,
} from "./fixtures";

test("the home tile Add patient to study opens the editor, which needs a site", async ({ page }) => {
  await signIn(page, "/");
  await page.getByRole("link", { name: /Add patient to study/ }).click();
  await expect(page).toHaveURL(/\/study-patients\/create$/);
  await expect(page.getByText("Please select a site first")).toBeVisible();
  await chooseSite(page, "BUD");
  await expect(page.getByRole("heading", { name: "Assign patient to study" })).toBeVisible();
  await expect(page.getByLabel("Patient", { exact: true })).toContainText("Type to select a patient ...");
  // A new assignment has no Close toggle; patient and study are required.
  await expect(page.getByRole("switch", { name: "Close" })).toHaveCount(0);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Patient is required")).toBeVisible();
  await expect(page.getByText("Study is required")).toBeVisible();
});

test("assign a patient to a study, be refused a second active assignment, close it with a reason, see Closed", async ({
  page,
}) => {
  const lastName = `Tesztelő${unique()}`;
  // Unique in the study (issue 46), also when the test is retried.
  const screenNr = `S-${unique()}`;
  const randomNr = `R-${unique()}`;
  await signIn(page, "/study-patients");
  const barcode = await newPatient(page, lastName);
  await chooseSite(page, "BUD");
  await expect(page.getByRole("heading", { name: "Study patients" })).toBeVisible();
  for (const title of ["Id", "Barcode", "Patient", "Study", "Screen Nr", "Random Nr", "Start date", "Status"])
    await expect(page.getByRole("columnheader", { name: title })).toBeVisible();

  await page.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("heading", { name: "Assign patient to study" })).toBeVisible();
  await choose(page, "Patient", new RegExp(`^${lastName} Réka`), lastName);
  await expect(page.getByLabel("Patient", { exact: true })).toContainText(`${lastName} Réka (${barcode})`);
  await choose(page, "Study", /TD-2025-001_SUB-STUDY/);
  await page.getByLabel("Screen number").fill(screenNr);
  await page.getByLabel("Random number").fill(randomNr);
  await page.getByLabel("Notes").fill("Consent signed on paper");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Study patient created")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Edit Study patient data" })).toBeVisible();
  const editUrl = page.url();

  // A second active assignment to the same study is refused, in the error bar and on the field.
  await page.goto("/study-patients/create");
  await choose(page, "Patient", new RegExp(`^${lastName} Réka`), lastName);
  await choose(page, "Study", /TD-2025-001_SUB-STUDY/);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "The patient is already assigned to this study" }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Assign patient to study" })).toBeVisible();

  // Close it: the close reason is required before it saves.
  await page.goto(editUrl);
  await expect(page.getByLabel("Screen number")).toHaveValue(screenNr);
  await expect(page.getByLabel("Patient", { exact: true })).toContainText(`${lastName} Réka`);
  await expect(page.getByLabel("Close reason")).toHaveCount(0);
  await page.getByRole("switch", { name: "Close" }).click();
  await expect(page.getByRole("switch", { name: "Close" })).toBeChecked();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Close reason is required")).toBeVisible();
  await expect(page.getByText("Study patient updated")).toHaveCount(0);
  await page.getByLabel("Close reason").click();
  await expect(page.getByRole("option")).toHaveText(["Cancelled", "Died", "End of study"]);
  await page.getByRole("option", { name: "End of study" }).click();
  await page.getByRole("button", { name: "Save" }).click();
  // An edit of an assignment says why (issue 46, point 1).
  await giveReason(page);
  await expect(page.getByText("Study patient updated")).toBeVisible();
  await expect(page.getByText(/Closed by Ada Admin on \d{4}-\d{2}-\d{2}\./)).toBeVisible();

  // The list shows it Closed (red) with its numbers and the study's working name (issue 15), the
  // project's code on hover.
  await page.goto("/study-patients");
  await page.getByRole("searchbox").fill(lastName);
  const row = page.getByRole("row").filter({ hasText: barcode });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`${lastName} Réka`);
  await expect(row).toContainText(screenNr);
  await expect(row).toContainText(randomNr);
  await expect(row.getByText("TD-2025-001_SUB-STUDY")).toHaveAttribute("title", "ACRMDPHFL001");
  await expect(row.getByText("Closed")).toBeVisible();

  // Closed, it no longer blocks a new assignment to the study.
  await page.goto("/study-patients/create");
  await choose(page, "Patient", new RegExp(`^${lastName} Réka`), lastName);
  await choose(page, "Study", /TD-2025-001_SUB-STUDY/);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Study patient created")).toBeVisible();
});

test("an assignment's history names its study and patient and shows codes as words (issue 15)", async ({
  page,
}) => {
  const lastName = `Történet${unique()}`;
  await signIn(page, "/");
  const { studyName, uuid, screenNr } = await newAssignedPatient(page, lastName);
  await chooseSite(page, "BUD");
  await page.goto(`/study-patients/${uuid}/edit`);
  await expect(page.getByLabel("Screen number")).toHaveValue(screenNr);
  await page.getByRole("switch", { name: "Close" }).click();
  await page.getByLabel("Close reason").click();
  await page.getByRole("option", { name: "End of study" }).click();
  await page.getByRole("button", { name: "Save" }).click();
  await giveReason(page, "Late entry");
  await expect(page.getByText("Study patient updated")).toBeVisible();

  await page.goto(`/study-patients/${uuid}`);
  const history = page.getByRole("region", { name: "History" });
  await expect(history.getByText("Reason: Late entry")).toBeVisible();
  await expect(history.getByText("Status: Active → Closed")).toBeVisible();
  await expect(history.getByText("Close reason: — → End of study")).toBeVisible();
  await expect(history.getByText("Closed by: — → Ada Admin")).toBeVisible();
  await expect(history.getByText(`Study: — → ${studyName}`)).toBeVisible();
  await expect(
    history.getByText(new RegExp(`^Patient: — → ${lastName} Bence \\(BUD-\\d+\\)$`)),
  ).toBeVisible();
  await expect(history).not.toContainText(/studyId|patientId|EOS/);
});
