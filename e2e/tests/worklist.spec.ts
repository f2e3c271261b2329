import type { Locator } from "@playwright/test";
import { chooseSite, demoStudyUuid, expect, signIn, staff, test, unique } from "./fixtures";

/** A worklist row's cells, and the patient's barcode and the visit's name as they show them. */
async function rowKeys(row: Locator) {
  const cells = row.getByRole("cell");
  const barcode = (await cells.nth(0).textContent())?.match(/[A-Z0-9]+-\d{6}/)?.[0] as string;
  const visitName = (await cells.nth(2).textContent()) as string;
  return { cells, barcode, visitName };
}

/** Today in the browser, as the date field takes it. */
const today = () => new Date().toLocaleDateString("sv-SE");

test("a coordinator finds an overdue visit on the worklist, records it with Record visit and sees it leave the overdue list", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await signIn(page, "/", staff);
  await chooseSite(page, "BUD");

  // Home: the active site's overdue visits, leading to the worklist filtered so.
  const tile = page.getByRole("link", { name: /^\d+ Overdue visits$/ });
  await expect(tile).toBeVisible();
  const tileCount = Number((await tile.textContent())?.match(/\d+/)?.[0]);
  expect(tileCount).toBeGreaterThan(0);

  // The menu's Worklist: every chip with its count.
  await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Worklist" }).click();
  await expect(page).toHaveURL(/\/worklist$/);
  await expect(page.getByRole("heading", { name: "Worklist" })).toBeVisible();
  for (const chip of ["Due", "Overdue", "Booked", "Upcoming \\(next 14 days\\)", "Out of window"])
    await expect(page.getByRole("button", { name: new RegExp(`^${chip} \\d+$`) })).toBeVisible();
  const table = page.getByRole("table", { name: "Worklist" });
  for (const title of ["Patient", "Study", "Visit", "Window", "Expected", "State", "Booked for"])
    await expect(table.getByRole("columnheader", { name: title, exact: true })).toBeVisible();

  // Only the overdue visits, kept in the URL.
  await page.getByRole("button", { name: /^Overdue \d+$/ }).click();
  await expect(page).toHaveURL(/\/worklist\?state=overdue$/);
  const rows = table.getByRole("row").filter({ has: page.getByRole("cell") });
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasNotText: "Overdue" })).toHaveCount(0);
  // A visit after the first (its window spans days): done late it becomes Out of window, while a
  // first visit's recorded date is day 0 itself, so it would be done.
  const row = rows.filter({ hasText: " – " }).first();
  const { cells, barcode, visitName } = await rowKeys(row);
  expect(barcode).toBeTruthy();
  await expect(cells.nth(3)).toHaveText(/^\d{1,2} [A-Z][a-z]{2}( \d{4})? – \d{1,2} [A-Z][a-z]{2} \d{4}$/);

  // Record visit: the form opens with patient, study and visit chosen and their planned window.
  await row.getByRole("link", { name: /^Record visit/ }).click();
  await expect(page).toHaveURL(/\/patient-visits\/.*returnTo=/);
  const select = (label: string) => page.getByRole("combobox", { name: label, exact: true });
  await expect(select("Patient")).toContainText(barcode);
  await expect(select("Visit")).toContainText(visitName);
  await expect(page.getByText(/^Planned window: .+ \(expected .+\)$/)).toBeVisible();
  // Today is after an overdue visit's window: an amber note, and Save still works.
  await page.getByLabel("Visit date").fill(today());
  await expect(page.getByText("Outside the planned window")).toBeVisible();
  await select("Visit status").click();
  await page.getByRole("option", { name: "Completed" }).click();
  await select("Visit result").click();
  await page.getByRole("option", { name: "OK" }).click();
  await page.getByRole("button", { name: "Save" }).click();

  // Back on the same worklist page, and the visit is no longer overdue.
  await expect(page).toHaveURL(/\/worklist\?state=overdue$/);
  await page.getByRole("searchbox", { name: "Search" }).fill(barcode);
  await expect(page).toHaveURL(/search/i);
  await expect(
    table.getByRole("row").filter({ hasText: barcode }).filter({ hasText: visitName }),
  ).toHaveCount(0);
  // Done late, it is now out of window.
  await page.getByRole("button", { name: /^Overdue \d+$/ }).click();
  await page.getByRole("button", { name: /^Out of window \d+$/ }).click();
  const late = table.getByRole("row").filter({ hasText: barcode }).filter({ hasText: visitName });
  await expect(late).toHaveCount(1);
  await expect(late).toContainText("Out of window");
  expect(errors).toEqual([]);
});

test("Record visit on a booking opens the booked visit, and completing it inside its window makes it done", async ({
  page,
}) => {
  await signIn(page, "/worklist?state=booked", staff);
  await chooseSite(page, "BUD");
  const table = page.getByRole("table", { name: "Worklist" });
  const rows = table.getByRole("row").filter({ has: page.getByRole("cell") });
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasNotText: "Booked" })).toHaveCount(0);
  // A booking inside its window (no amber note in Booked for).
  const row = rows.filter({ hasNotText: "Outside the planned window" }).first();
  const { barcode, visitName } = await rowKeys(row);
  await row.getByRole("link", { name: /^Record visit/ }).click();

  await expect(page).toHaveURL(/\/patient-visits\/pv-[0-9a-f-]+\/edit\?returnTo=/);
  await expect(page.getByRole("heading", { name: "Modify patient visit" })).toBeVisible();
  const select = (label: string) => page.getByRole("combobox", { name: label, exact: true });
  await expect(select("Patient")).toContainText(barcode);
  await expect(select("Visit status")).toContainText("Booked");
  await expect(page.getByLabel("Visit date")).not.toHaveValue("");
  await expect(page.getByText(/^Planned window: /)).toBeVisible();
  await expect(page.getByText("Outside the planned window")).toHaveCount(0);
  await select("Visit status").click();
  await page.getByRole("option", { name: "Completed" }).click();
  await page.getByRole("button", { name: "Save" }).click();

  await expect(page).toHaveURL(/\/worklist\?state=booked$/);
  await page.getByRole("searchbox", { name: "Search" }).fill(barcode);
  await expect(page).toHaveURL(/searchTerm=/);
  await expect(
    table.getByRole("row").filter({ hasText: barcode }).filter({ hasText: visitName }),
  ).toHaveCount(0);
  // Done in its window, it is on no list of the worklist at all.
  await page.getByRole("button", { name: /^Booked \d+$/ }).click();
  await expect(page).not.toHaveURL(/state=/);
  await expect(
    table.getByRole("row").filter({ hasText: barcode }).filter({ hasText: visitName }),
  ).toHaveCount(0);
});

test("at 1280 px the worklist fits beside the menu: no sideways scroll, each Record visit in view", async ({
  page,
  api,
}) => {
  // A patient of its own, starting today, whose second plan visit is booked far outside its window:
  // the widest row the worklist draws (its window over a dash, the amber note under the booking).
  const study = await api.get(`/api/studies/${demoStudyUuid}`);
  const { studyVisits } = await api.get(`/api/patient-visit-summary/${demoStudyUuid}`);
  const site = (await api.get("/api/me/sites")).items.find((s: { code: string }) => s.code === "BUD");
  const patient = await api.post("/api/patients", {
    recorderSiteId: site.id,
    status: 1,
    patientDetail: { firstName: "Szilvia", lastName: `Widerow${unique()}`, sex: "FEMALE" },
    address: { countryCode: "HU", city: "Győr" },
    contacts: [],
  });
  await api.post("/api/study-patients", {
    studyId: study.id,
    patientId: patient.id,
    screenNr: `W-${unique()}`,
    startDate: today(),
    active: true,
  });
  const farOff = new Date(Date.now() + 60 * 86_400_000).toLocaleDateString("sv-SE");
  await api.post("/api/patient-visits", {
    patientId: patient.id,
    studyId: study.id,
    visitId: studyVisits[1].id,
    visitDate: farOff,
    visitStatus: "BOOKED",
  });

  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, "/", staff);
  await chooseSite(page, "BUD");
  await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Worklist" }).click();
  const table = page.getByRole("table", { name: "Worklist" });
  await page.getByRole("searchbox", { name: "Search" }).fill(patient.barcode);
  await expect(page).toHaveURL(/searchTerm=/);
  const rows = table.getByRole("row").filter({ has: page.getByRole("link", { name: /^Record visit / }) });
  await expect(rows.filter({ hasNotText: patient.barcode })).toHaveCount(0);
  const booked = table.getByRole("row").filter({ hasText: "Outside the planned window" });
  await expect(booked).toHaveCount(1);
  await expect(booked).toContainText(" – ");
  const area = table.locator("xpath=..");
  const [scrollWidth, clientWidth] = await area.evaluate((element) => [
    element.scrollWidth,
    element.clientWidth,
  ]);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  expect(await rows.count()).toBeGreaterThan(1);
  for (const row of await rows.all())
    await expect(row.getByRole("link", { name: /^Record visit / })).toBeInViewport({ ratio: 1 });
});
