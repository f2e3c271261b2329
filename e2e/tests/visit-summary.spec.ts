import { type Api, chooseSite, demoStudyUuid, expect, type Page, signIn, test, unique } from "./fixtures";

type Column = { id: number; visitName: string; visitType: number };

/** A patient of the first site, assigned to the demo study, with one dated visit: the second column. */
async function patientWithOneVisit(api: Api) {
  const study = await api.get(`/api/studies/${demoStudyUuid}`);
  const { studyVisits } = (await api.get(`/api/patient-visit-summary/${demoStudyUuid}`)) as {
    studyVisits: Column[];
  };
  const site = (await api.get("/api/me/sites")).items.find((s: { code: string }) => s.code === "BUD");
  const lastName = `Summary${unique()}`;
  const patient = await api.post("/api/patients", {
    recorderSiteId: site.id,
    status: 1,
    patientDetail: { firstName: "Vera", lastName, sex: "FEMALE", birthDate: "1979-04-12" },
    address: { countryCode: "HU", city: "Budapest" },
    contacts: [],
  });
  // A screen number that sorts first, so the row is in view without scrolling.
  await api.post("/api/study-patients", {
    studyId: study.id,
    patientId: patient.id,
    screenNr: `0-${unique()}`,
    startDate: "2025-02-03",
    active: true,
  });
  const visit = studyVisits[1];
  await api.post("/api/patient-visits", {
    patientId: patient.id,
    studyId: study.id,
    visitId: visit.id,
    visitDate: "2025-02-17",
    visitStatus: "COMPLETED",
    visitResult: "OK",
  });
  return { study, studyVisits, name: `${lastName} Vera` };
}

test("the home tile opens the demo study's visit summary with dates and available in the right cells", async ({
  page,
  api,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await signIn(page, "/");
  const { study, studyVisits, name } = await patientWithOneVisit(api);

  await page.getByRole("main").getByRole("link", { name: "Visit summary" }).click();
  await expect(page).toHaveURL(`/visit-summary/${demoStudyUuid}`);
  // The grid follows the active site, like the patient lists.
  await expect(page.getByText("Please select a site first")).toBeVisible();
  await chooseSite(page, "BUD");
  await expect(page.getByRole("heading", { name: `Visit summary — ${study.workingName}` })).toBeVisible();

  const grid = page.getByRole("table", { name: "Visit summary" });
  const headers = grid.getByRole("columnheader");
  await expect(headers.nth(0)).toHaveText("Nr.");
  await expect(headers.nth(1)).toHaveText("Screen Nr");
  await expect(headers.nth(2)).toHaveText("Name");
  // One column per study visit, in studyplan order, with its name and type.
  await expect(headers).toHaveCount(3 + studyVisits.length);
  await expect(headers.nth(3)).toContainText(studyVisits[0].visitName);
  await expect(headers.nth(3)).toContainText(`${studyVisits[0].visitType} `);

  // The new patient: the second visit's date, the first and the others available.
  const row = grid.getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });
  await expect(row).toHaveCount(1);
  // Each cell also names its state for screen readers (its colour shows it to the eye).
  const cells = row.getByRole("cell");
  await expect(cells.nth(2)).toHaveText(/^available /);
  await expect(cells.nth(3)).toHaveText(/^2025-02-17 /);
  await expect(cells.nth(4)).toHaveText(/^available/);

  // The demo data's patients have dated visits too, and the grid counts every patient.
  const total = Number(await grid.getAttribute("aria-rowcount")) - 1;
  expect(total).toBeGreaterThan(10);
  await expect(
    grid
      .getByRole("cell")
      .filter({ hasText: /^\d{4}-\d{2}-\d{2} / })
      .first(),
  ).toBeVisible();
  expect(errors).toEqual([]);
});

test("the grid scrolls by keyboard with the name column and the header kept in place", async ({ page }) => {
  await signIn(page, `/visit-summary/${demoStudyUuid}`);
  await chooseSite(page, "BUD");
  const grid = page.getByRole("table", { name: "Visit summary" });
  await expect(grid.getByRole("row").nth(1)).toBeVisible();
  const area = page.getByRole("region", { name: "Visit summary grid" });
  await area.focus();
  await expect(area).toBeFocused();
  const name = grid.getByRole("columnheader", { name: "Name" });
  const firstName = grid.getByRole("rowheader").first();
  const before = await firstName.boundingBox();
  // Sideways: the visit columns move, the Name column stays.
  for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowRight");
  await expect.poll(() => area.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  expect((await firstName.boundingBox())?.x).toBe(before?.x);
  // Down a page: the header stays on top.
  const headerTop = (await name.boundingBox())?.y;
  await page.keyboard.press("PageDown");
  await expect.poll(() => area.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  expect((await name.boundingBox())?.y).toBe(headerTop);
});

test("an unknown study says it was not found", async ({ page }) => {
  const logged: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") logged.push(message.text());
  });
  await signIn(page, "/visit-summary/std-00000000-0000-4000-8000-0000000000ff");
  await chooseSite(page, "BUD");
  const grid = page.getByRole("table", { name: "Visit summary" });
  await expect(grid).toBeVisible();
  await expect(grid.getByRole("row")).toHaveCount(1);
  await expect(page.getByText("Study not found")).toBeVisible();
  await expect(page.getByText("No patients in this study")).toHaveCount(0);
  await expect.poll(() => logged.some((text) => text.includes("visit summary"))).toBe(true);
});

test("the grid colours each visit by its state with a legend, heads columns with day and window, and filters overdue patients", async ({
  page,
}) => {
  const staff = await page.request.post("/api/auth", {
    data: { username: "staff@example.com", password: "staff1234" },
  });
  expect(staff.ok()).toBeTruthy();
  // Wide enough for every visit column to be drawn: the grid draws only the columns near its view,
  // and an overdue visit is now a late one (issue 43: an early one is missed once later ones took place).
  await page.setViewportSize({ width: 2600, height: 900 });
  await page.goto(`/visit-summary/${demoStudyUuid}`);
  await chooseSite(page, "BUD");
  const grid = page.getByRole("table", { name: "Visit summary" });
  await expect(grid.getByRole("row").nth(1)).toBeVisible();

  // The legend, each entry in its state's colour; a cell of that state has the same colour.
  const legend = page.getByRole("list", { name: "Legend" });
  const entries = [
    "Done",
    "Out of window",
    "Booked",
    "Due",
    "Overdue",
    "Missed",
    "Upcoming (expected date shown)",
    "Not applicable",
  ];
  await expect(legend.getByRole("listitem")).toHaveText(entries);
  const background = (locator: ReturnType<Page["locator"]>) =>
    locator.evaluate((el) => getComputedStyle(el).backgroundColor);
  const overdueColour = await background(legend.getByRole("listitem").filter({ hasText: /^Overdue$/ }));
  const doneColour = await background(legend.getByRole("listitem").filter({ hasText: /^Done$/ }));
  expect(overdueColour).not.toBe(doneColour);
  // The demo data has overdue and done visits at BUD. An overdue visit is not done: it is "available",
  // or shows the day of its cancelled or missed appointment (issue 43: the record that counts).
  const overdueCell = grid
    .getByRole("cell")
    .filter({ hasText: /Overdue$/ })
    .first();
  await expect(overdueCell).toBeVisible();
  await expect(overdueCell).toHaveText(/^(available|\d{4}-\d{2}-\d{2}) Overdue$/);
  expect(await background(overdueCell)).toBe(overdueColour);
  const doneCell = grid
    .getByRole("cell")
    .filter({ hasText: /^\d{4}-\d{2}-\d{2} Done$/ })
    .first();
  await expect(doneCell).toBeVisible();
  expect(await background(doneCell)).toBe(doneColour);
  // A missed visit (issue 43) has a colour of its own, and says its protocol deviation is on file.
  const missedColour = await background(legend.getByRole("listitem").filter({ hasText: /^Missed$/ }));
  expect(missedColour).not.toBe(overdueColour);
  const missedCell = grid
    .getByRole("cell")
    .filter({ hasText: /Missed, protocol deviation on file/ })
    .first();
  await expect(missedCell).toBeVisible();
  expect(await background(missedCell)).toBe(missedColour);

  // Plan visits say their day and window: the first is day 0.
  await expect(grid.getByRole("columnheader").nth(3)).toContainText("Day 0");
  await expect(grid.getByRole("columnheader").nth(4)).toContainText(/Day \d+|\+\d+ days/);

  // Only the patients with an overdue visit: every row left has one.
  const total = Number(await grid.getAttribute("aria-rowcount"));
  await page.getByRole("checkbox", { name: "Only patients with overdue visits" }).click();
  await expect(page).toHaveURL(/overdue=true/);
  await expect.poll(async () => Number(await grid.getAttribute("aria-rowcount"))).toBeLessThan(total);
  const rows = grid.getByRole("row").filter({ has: page.getByRole("rowheader") });
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasNot: page.getByRole("cell").filter({ hasText: /Overdue$/ }) })).toHaveCount(
    0,
  );
});

test("a study's detail page and the study picker open its visit summary", async ({ page, api }) => {
  await signIn(page, "/studies");
  await chooseSite(page, "BUD");
  const study = await api.get(`/api/studies/${demoStudyUuid}`);
  await page.goto(`/studies/${demoStudyUuid}`);
  await page.getByRole("link", { name: "Open the visit summary" }).click();
  await expect(page).toHaveURL(`/visit-summary/${demoStudyUuid}`);
  await expect(page.getByRole("heading", { name: `Visit summary — ${study.workingName}` })).toBeVisible();

  // The picker offers every study; another one opens its own grid.
  await page.getByRole("combobox", { name: "Study", exact: true }).click();
  const other = page.getByRole("option").filter({ hasNotText: study.workingName }).first();
  const otherName = (await other.textContent()) as string;
  await other.click();
  await expect(page.getByRole("heading", { name: `Visit summary — ${otherName}` })).toBeVisible();
  await expect(page).not.toHaveURL(`/visit-summary/${demoStudyUuid}`);
  await expect(page.getByRole("table", { name: "Visit summary" })).toBeVisible();
});

test("at 390 px only Name stays in place and visit columns can be seen (issue 15, bug 2)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, `/visit-summary/${demoStudyUuid}`);
  await chooseSite(page, "BUD");
  const grid = page.getByRole("table", { name: "Visit summary" });
  await expect(grid.getByRole("row").nth(1)).toBeVisible();
  const area = page.getByRole("region", { name: "Visit summary grid" });
  await area.evaluate((el) => {
    el.scrollLeft = 300;
  });
  const name = grid.getByRole("columnheader", { name: "Name" });
  const areaBox = await area.boundingBox();
  const nameBox = await name.boundingBox();
  // Name sticks to the left edge of the grid, taking well under half of the screen …
  expect(Math.round(nameBox?.x ?? 0)).toBeLessThanOrEqual(Math.round((areaBox?.x ?? 0) + 2));
  expect(nameBox?.width ?? 999).toBeLessThan(195);
  // … and the rest shows visit columns.
  const visible = await grid.getByRole("columnheader").evaluateAll(
    (headers, right) =>
      headers.filter((h) => {
        const box = h.getBoundingClientRect();
        return box.left >= (right as number) - 1 && box.left < window.innerWidth - 40;
      }).length,
    (nameBox?.x ?? 0) + (nameBox?.width ?? 0),
  );
  expect(visible).toBeGreaterThan(0);
});
