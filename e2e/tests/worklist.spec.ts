import type { Locator } from "@playwright/test";
import { chooseSite, demoStudyUuid, expect, type Page, signIn, staff, test, unique } from "./fixtures";

/** A worklist row's cells, and the patient's barcode and the visit's name as they show them. */
async function rowKeys(row: Locator) {
  const cells = row.getByRole("cell");
  const barcode = (await cells.nth(0).textContent())?.match(/[A-Z0-9]+-\d{6}/)?.[0] as string;
  const visitName = (await cells.nth(3).textContent()) as string;
  return { cells, barcode, visitName };
}

/**
 * Clicks a state chip and waits for the worklist's answer to the view it leads to (the default view
 * when `state` is null), so that what the table lacks afterwards is known to be missing there.
 */
async function chooseChip(page: Page, chip: RegExp, state: string | null) {
  const answer = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === "/api/worklist" && url.searchParams.get("state") === state;
  });
  await page.getByRole("button", { name: chip }).click();
  await answer;
}

/** Today in the browser, as the date field takes it. */
const today = () => new Date().toLocaleDateString("sv-SE");

/** The day `days` after an ISO day (before it when negative). */
function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The days from the last day of a window as the worklist writes it ("3 Oct – 9 Oct 2026") to today. */
function daysAfter(windowText: string): number {
  const [, day, month, year] = windowText.match(/(\d{1,2}) ([A-Z][a-z]{2}) (\d{4})$/) as string[];
  const end = Date.UTC(Number(year), months.indexOf(month), Number(day));
  return Math.round((Date.parse(`${today()}T00:00:00Z`) - end) / 86_400_000);
}

test("a coordinator finds an overdue visit on the worklist, records it late with Record visit and finds it under Deviations open", async ({
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

  // The menu's Worklist: every chip with its count, in the engine's order (issue 43: Missed and
  // Deviations open in place of Out of window).
  await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Worklist" }).click();
  await expect(page).toHaveURL(/\/worklist$/);
  await expect(page.getByRole("heading", { name: "Worklist" })).toBeVisible();
  const chips = page.getByRole("group", { name: "Show visits that are" }).getByRole("button");
  await expect(chips).toHaveText(
    [
      "Overdue",
      "Due",
      "Booked",
      "Upcoming \\(next 14 days\\)",
      "Unscheduled",
      "Missed",
      "Deviations open",
    ].map((chip) => new RegExp(`^${chip} \\d+$`)),
  );
  const table = page.getByRole("table", { name: "Worklist" });
  for (const title of ["Patient", "Screen Nr", "Study", "Visit", "Window", "Expected", "State", "Booked for"])
    await expect(table.getByRole("columnheader", { name: title, exact: true })).toBeVisible();
  const rows = table.getByRole("row").filter({ has: page.getByRole("cell") });
  await expect(rows.first()).toBeVisible();
  // The default view holds only what can still be done: no missed visit, none done out of window.
  await expect(rows.filter({ hasText: /Missed|Out of window/ })).toHaveCount(0);

  // Only the overdue visits, kept in the URL.
  await page.getByRole("button", { name: /^Overdue \d+$/ }).click();
  await expect(page).toHaveURL(/\/worklist\?state=overdue$/);
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasNotText: "Overdue" })).toHaveCount(0);
  // A visit after the first (its window spans days): done late it is out of its window, while a
  // first visit's recorded date is day 0 itself, so it would be done.
  const row = rows.filter({ hasText: " – " }).first();
  const { cells, barcode, visitName } = await rowKeys(row);
  const studyName = (await cells.nth(2).textContent()) as string;
  expect(barcode).toBeTruthy();
  await expect(cells.nth(4)).toHaveText(/^\d{1,2} [A-Z][a-z]{2}( \d{4})? – \d{1,2} [A-Z][a-z]{2} \d{4}$/);
  const late = daysAfter((await cells.nth(4).textContent()) as string);
  expect(late).toBeGreaterThan(0);

  // Record visit: a new record's form, with patient, study and visit chosen and their planned window.
  await row.getByRole("link", { name: /^Record visit/ }).click();
  await expect(page).toHaveURL(/\/patient-visits\/create\?.*returnTo=/);
  await expect(page.getByRole("heading", { name: "Add new visit" })).toBeVisible();
  const select = (label: string) => page.getByRole("combobox", { name: label, exact: true });
  await expect(select("Patient")).toContainText(barcode);
  await expect(select("Visit")).toContainText(visitName);
  await expect(page.getByText(/^Planned window: .+ \(expected .+\)$/)).toBeVisible();
  // It starts as done today (issue 46). Today is after an overdue visit's window: an amber note, and
  // Save still works.
  await expect(page.getByLabel("Visit date")).toHaveValue(today());
  await expect(select("Visit status")).toContainText("Completed");
  await expect(page.getByText("Outside the planned window")).toBeVisible();
  await select("Visit result").click();
  await page.getByRole("option", { name: "OK" }).click();
  await page.getByRole("button", { name: "Save" }).click();

  // Back on the same worklist page, and the visit is no longer overdue.
  await expect(page).toHaveURL(/\/worklist\?state=overdue$/);
  await page.getByRole("searchbox", { name: "Search" }).fill(barcode);
  await expect(page).toHaveURL(/search/i);
  // The search's answer: no other patient's row.
  await expect(rows.filter({ hasText: /-\d{6}/ }).filter({ hasNotText: barcode })).toHaveCount(0);
  const visitRow = rows
    .filter({ hasText: barcode })
    .filter({ hasText: studyName })
    .filter({ hasText: visitName });
  await expect(visitRow).toHaveCount(0);
  // Nor on the default view: done, it leaves the worklist once its deviation is on file …
  await chooseChip(page, /^Overdue \d+$/, null);
  await expect(page).not.toHaveURL(/state=/);
  await expect(visitRow).toHaveCount(0);
  // … which waits under Deviations open, with the days outside the window and a link to it.
  await page.getByRole("button", { name: /^Deviations open \d+$/ }).click();
  await expect(page).toHaveURL(/state=deviations-open/);
  await expect(visitRow).toHaveCount(1);
  await expect(visitRow).toContainText("Out of window");
  const days = `+${late} ${late === 1 ? "day" : "days"}`;
  await expect(visitRow).toContainText(days);
  await expect(visitRow.getByRole("link", { name: /^Record visit/ })).toHaveCount(0);
  await visitRow.getByRole("link", { name: `Deviation of ${visitName} of `, exact: false }).click();
  await expect(page).toHaveURL(/\/protocol-deviations\/dev-[0-9a-f-]+$/);
  await expect(page.getByRole("heading", { name: "Protocol deviation" })).toBeVisible();
  const detail = (label: string) => page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("+ dd");
  await expect(detail("Kind")).toHaveText("Out of window");
  await expect(detail("Days outside")).toHaveText(days);
  await expect(detail("Status")).toHaveText("Open");
  expect(errors).toEqual([]);
});

test("Record visit on a booking opens a new record beside the booking, and completing it inside its window makes it done", async ({
  page,
  api,
}) => {
  // A patient of its own: Screening done on its start 14 days ago, so Run-in's window holds today;
  // Run-in is booked for tomorrow.
  const study = await api.get(`/api/studies/${demoStudyUuid}`);
  const site = (await api.get("/api/me/sites")).items.find((s: { code: string }) => s.code === "BUD");
  const lastName = `Foglalt${unique()}`;
  const patient = await api.post("/api/patients", {
    recorderSiteId: site.id,
    status: 1,
    patientDetail: { firstName: "Ottó", lastName, sex: "MALE" },
    address: { countryCode: "HU", city: "Eger" },
    contacts: [],
  });
  const start = addDays(today(), -14);
  await api.post("/api/study-patients", {
    studyId: study.id,
    patientId: patient.id,
    screenNr: `B-${unique()}`,
    startDate: start,
    active: true,
  });
  const visits = async () =>
    Object.values(
      (await api.get(`/api/patient-visit-detail?patientId=${patient.id}&studyId=${study.id}`)).visits,
    ) as { visitId: number; visitName: string; windowStart: string; windowEnd: string }[];
  const screening = (await visits())[0];
  await api.post("/api/patient-visits", {
    patientId: patient.id,
    studyId: study.id,
    visitId: screening.visitId,
    visitDate: start,
    visitStatus: "COMPLETED",
    visitResult: "OK",
  });
  const runIn = (await visits())[1];
  expect(runIn.windowStart <= today() && today() < runIn.windowEnd).toBe(true);
  const tomorrow = addDays(today(), 1);
  await api.post("/api/patient-visits", {
    patientId: patient.id,
    studyId: study.id,
    visitId: runIn.visitId,
    visitDate: tomorrow,
    visitStatus: "BOOKED",
    notes: "Booked by phone",
  });

  await signIn(page, "/worklist?state=booked", staff);
  await chooseSite(page, "BUD");
  const table = page.getByRole("table", { name: "Worklist" });
  const rows = table.getByRole("row").filter({ has: page.getByRole("cell") });
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasNotText: "Booked" })).toHaveCount(0);
  await page.getByRole("searchbox", { name: "Search" }).fill(patient.barcode);
  await expect(page).toHaveURL(/searchTerm=/);
  const row = rows.filter({ hasText: patient.barcode }).filter({ hasText: runIn.visitName });
  await expect(row).toHaveCount(1);
  // A booking inside its window: no amber note in Booked for.
  await expect(row).not.toContainText("Outside the planned window");
  await row.getByRole("link", { name: /^Record visit/ }).click();

  // Never the booking's editor: a new record, with the booking listed as an earlier one.
  await expect(page).toHaveURL(/\/patient-visits\/create\?patientId=\d+&studyId=\d+&visitId=\d+&returnTo=/);
  await expect(page.getByRole("heading", { name: "Add new visit" })).toBeVisible();
  const select = (label: string) => page.getByRole("combobox", { name: label, exact: true });
  await expect(select("Patient")).toContainText(patient.barcode);
  await expect(select("Visit")).toContainText(runIn.visitName);
  await expect(select("Visit status")).toContainText("Completed");
  await expect(page.getByLabel("Visit date")).toHaveValue(today());
  const earlier = page.getByRole("table", { name: "Earlier records of this visit" });
  await expect(earlier.getByRole("row").filter({ has: page.getByRole("cell") })).toHaveCount(1);
  await expect(earlier).toContainText(tomorrow);
  await expect(earlier).toContainText("Booked");
  await expect(earlier).toContainText("Booked by phone");
  await expect(page.getByText(/^Planned window: /)).toBeVisible();
  await expect(page.getByText("Outside the planned window")).toHaveCount(0);
  await page.getByRole("button", { name: "Save" }).click();

  await expect(page).toHaveURL(/\/worklist\?state=booked&searchTerm=/);
  await expect(row).toHaveCount(0);
  // Done in its window, it is on no list of the worklist at all.
  await chooseChip(page, /^Booked \d+$/, null);
  await expect(page).not.toHaveURL(/state=/);
  // Its next visit is on the worklist, Run-in no more.
  await expect(rows.filter({ hasText: patient.barcode }).first()).toBeVisible();
  await expect(row).toHaveCount(0);
  await chooseChip(page, /^Deviations open \d+$/, "deviations-open");
  await expect(row).toHaveCount(0);

  // The booking stays as a record of its own beside the completed visit.
  await page.goto("/patient-visits");
  await page.getByRole("searchbox", { name: "Search" }).fill(lastName);
  const records = page
    .getByRole("table", { name: "Patient visits" })
    .getByRole("row")
    .filter({ hasText: lastName })
    .filter({ hasText: runIn.visitName });
  await expect(records).toHaveCount(2);
  await expect(records.filter({ hasText: tomorrow })).toContainText("Booked");
  await expect(records.filter({ hasText: today() })).toContainText("Completed");
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

test("on a 390 px phone each worklist row is a card with patient, visit, window and state, and nothing scrolls sideways (issue 46, point 9)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "/worklist", staff);
  await chooseSite(page, "BUD");
  const table = page.getByRole("table", { name: "Worklist" });
  const row = table
    .getByRole("row")
    .filter({ has: page.getByRole("cell") })
    .first();
  const card = row.locator('[data-card="worklist-row"]');
  await expect(card).toBeVisible();
  await expect(card).toContainText(/[A-Z0-9]+-\d{6}/);
  // The columns the card stands for are left out; the card and Record visit are in view.
  await expect(table.getByRole("columnheader", { name: "Study", exact: true })).toBeHidden();
  await expect(card).toBeInViewport();
  await expect(row.getByRole("link", { name: /^Record visit/ })).toBeInViewport({ ratio: 1 });
  for (const scroller of ["html", "main", "table"]) {
    const [scrollWidth, clientWidth] = await page
      .locator(scroller === "table" ? "table[aria-label='Worklist'] >> xpath=.." : scroller)
      .first()
      .evaluate((element) => [element.scrollWidth, element.clientWidth]);
    expect(scrollWidth, scroller).toBeLessThanOrEqual(clientWidth);
  }
});
