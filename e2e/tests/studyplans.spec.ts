import type { Locator } from "@playwright/test";
import { type Api, expect, type Page, signIn, test, unique } from "./fixtures";

/** A project of its own with one study and five visits, so this test shares nothing with others. */
async function studyWithVisits(api: Api) {
  const partners = (await api.get("/api/partners?pagesize=250")).items;
  const area = (await api.get("/api/therapy-areas?pagesize=1")).items[0];
  const site = (await api.get("/api/sites?pagesize=1")).items[0];
  const protocolNr = `SP-${unique().toUpperCase()}`;
  const project = await api.post("/api/projects", {
    workingName: `Plan project ${protocolNr}`,
    protocolNr,
    internalCode: "computed by the server",
    projectStatusId: 30,
    siteIds: [site.id],
    details: {
      longName: "Studyplan end-to-end project",
      officialTitle: "A study to test studyplans",
      officialUrl: "https://example.org",
      phase: 2,
      ipName: "IP",
      therapyAreaId: area.id,
      croId: partners.find((p: { cro: boolean }) => p.cro).id,
      sponsorId: partners.find((p: { sponsor: boolean }) => p.sponsor).id,
    },
    finance: {
      settlementDays: 30,
      paymentDays: 30,
      patientFee: 100,
      currency: "EUR",
      vat: 27,
      paidPercentage: 50,
      monitoredPercentage: 100,
    },
    settings: { rescreen: false, cohortHandling: false, hospitalisation: false },
  });
  const study = await api.post("/api/studies", {
    projectId: project.id,
    variant: "NORMAL",
    workingName: `${protocolNr}_NORMAL`,
    fpfv: "2025-01-06",
    lpfv: "2026-01-05",
    lplv: "2026-12-28",
    variantDescription: "",
    projectStatusId: 30,
  });
  for (const [name, visitTypeId, mandatory] of [
    ["Screening", 20, 1],
    ["Randomisation", 50, 1],
    ["Week 4", 60, 1],
    ["Phone call", 110, 0],
    ["End of study", 80, 1],
  ] as const) {
    await api.post("/api/visits", { studyId: study.id, name, visitTypeId, mandatory });
  }
  return { protocolNr, study };
}

const pane = (page: Page, name: "Studyplan visits" | "Available visits") =>
  page.getByRole("region", { name: new RegExp(`^${name}`) });
const handle = (page: Page, visit: string) =>
  page.getByRole("button", { name: `Drag ${visit}`, exact: true });

/** The visit names of a pane in order, read from the cards' drag handles. */
async function namesIn(page: Page, name: "Studyplan visits" | "Available visits") {
  const labels = await pane(page, name)
    .getByRole("button", { name: /^Drag / })
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label") ?? ""));
  return labels.map((label) => label.replace(/^Drag /, ""));
}

async function centre(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not visible");
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Drags a card with the mouse so that it lands a little below `to` (after that card), or at a point. */
async function dragWithPointer(page: Page, visit: string, to: { x: number; y: number }) {
  const from = await centre(handle(page, visit));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 8, from.y + 8, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 20 });
  await page.mouse.up();
}

/**
 * Lifts a card with Space and waits, as a screen reader user does, for it to be announced lifted ("Picked
 * up …", at once followed by "… is over …"). dnd-kit's keyboard sensor listens for the arrows only from
 * the task after the one that lifted the card: a timer of the page's own, set now, fires after that one
 * (CI lost an arrow on a busy machine).
 */
async function pickUp(page: Page, visit: string) {
  await handle(page, visit).focus();
  await page.keyboard.press("Space");
  await expect(page.getByText(new RegExp(`^(Picked up ${visit}\\.|${visit} is over .+\\.)$`))).toBeAttached();
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

/** Lifts a card with Space, moves it by 25 px arrow steps to just below `target`'s card, drops it with Space. */
async function dragWithKeyboard(page: Page, visit: string, target: string) {
  const from = await centre(handle(page, visit));
  // The target card's middle, not its handle's: a plan's card holds a fee share too and may take two
  // lines, its handle on the first.
  const to = await centre(handle(page, target).locator("xpath=ancestor::li[1]"));
  await pickUp(page, visit);
  const across = Math.round((to.x - from.x) / 25);
  // Ends 3 to 28 px below the target card's middle: on its lower half, so after it.
  const down = Math.ceil((to.y - from.y + 3) / 25);
  for (let i = 0; i < Math.abs(across); i++)
    await page.keyboard.press(across > 0 ? "ArrowRight" : "ArrowLeft");
  for (let i = 0; i < Math.abs(down); i++) await page.keyboard.press(down > 0 ? "ArrowDown" : "ArrowUp");
  await page.keyboard.press("Space");
}

const scheduleRow = (page: Page, from: string, to: string) =>
  page.getByRole("button", { name: new RegExp(`^Schedule from ${from} to ${to}:`) });

test("build a studyplan by pointer, keyboard and buttons, edit one schedule row and cancel another, save and reload", async ({
  page,
  api,
}) => {
  // Signed in by the set-up, before the app starts its own session.
  const { protocolNr, study } = await studyWithVisits(api);

  await page.goto("/studyplans");
  await page.getByRole("searchbox", { name: "Search" }).fill(protocolNr);
  await expect(page).toHaveURL(new RegExp(`searchTerm=${protocolNr}`));
  const row = page.getByRole("row", { name: new RegExp(protocolNr) });
  await expect(page.getByRole("row")).toHaveCount(2);
  await expect(row.getByText("Missing", { exact: true })).toBeVisible();
  await row.getByRole("cell", { name: `${protocolNr}_NORMAL`, exact: true }).click();
  await expect(page).toHaveURL(`/studies/${study.uuid}/studyplans/create`);
  await expect(page.getByRole("heading", { name: `${protocolNr}_NORMAL`, level: 1 })).toBeVisible();
  await expect
    .poll(() => namesIn(page, "Available visits"))
    .toEqual(["Screening", "Randomisation", "Week 4", "Phone call", "End of study"]);
  // Each card: number, name, mandatory dot, type badge (amber for 50 Randomisation).
  const randomisation = pane(page, "Available visits")
    .getByRole("listitem")
    .filter({ hasText: "Randomisation" });
  await expect(randomisation.getByRole("img", { name: "Mandatory" })).toBeVisible();
  await expect(randomisation.getByText("50 Randomisation")).toHaveClass(/amber/);
  await expect(
    pane(page, "Available visits")
      .getByRole("listitem")
      .filter({ hasText: "Phone call" })
      .getByRole("img", { name: "Optional" }),
  ).toBeVisible();

  // Pointer: Screening into the empty plan, then Randomisation after it.
  const planBox = await pane(page, "Studyplan visits").boundingBox();
  if (!planBox) throw new Error("no plan pane");
  await dragWithPointer(page, "Screening", { x: planBox.x + 40, y: planBox.y + 60 });
  await expect.poll(() => namesIn(page, "Studyplan visits")).toEqual(["Screening"]);
  // Dropped well below Screening, in the plan pane's empty lower part: a point just under its centre
  // could land above it if the cards shift while the drag passes over them on a busy machine.
  const screening = await centre(handle(page, "Screening"));
  const plan = await pane(page, "Studyplan visits").boundingBox();
  if (!plan) throw new Error("no plan pane");
  const below = Math.min(screening.y + 60, plan.y + plan.height - 15);
  await dragWithPointer(page, "Randomisation", { x: screening.x, y: below });
  await expect.poll(() => namesIn(page, "Studyplan visits")).toEqual(["Screening", "Randomisation"]);

  // Buttons: the non-drag way.
  await page.getByRole("button", { name: "Add End of study to plan" }).click();
  await page.getByRole("button", { name: "Add Week 4 to plan" }).click();
  await expect
    .poll(() => namesIn(page, "Studyplan visits"))
    .toEqual(["Screening", "Randomisation", "End of study", "Week 4"]);

  // Keyboard: Week 4 up over End of study within the plan, then Phone call across after Randomisation.
  const week4 = await centre(handle(page, "Week 4"));
  const end = await centre(handle(page, "End of study"));
  await pickUp(page, "Week 4");
  for (let i = 0; i < Math.round((week4.y - end.y) / 25); i++) await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Space");
  await expect
    .poll(() => namesIn(page, "Studyplan visits"))
    .toEqual(["Screening", "Randomisation", "Week 4", "End of study"]);
  await dragWithKeyboard(page, "Phone call", "Randomisation");
  await expect
    .poll(() => namesIn(page, "Studyplan visits"))
    .toEqual(["Screening", "Randomisation", "Phone call", "Week 4", "End of study"]);
  expect(await namesIn(page, "Available visits")).toEqual([]);

  // New pairs start at zero; one row edited and saved, another edited and cancelled with Escape.
  await expect(scheduleRow(page, "Screening", "Randomisation")).toHaveText("0 days (-0 / +0)");
  await scheduleRow(page, "Screening", "Randomisation").click();
  await page.getByLabel("Days", { exact: true }).fill("14");
  await page.getByLabel("Window before", { exact: true }).fill("-3");
  await expect(page.getByLabel("Window before", { exact: true })).toHaveValue("0");
  await page.getByLabel("Window before", { exact: true }).fill("2");
  await page.getByLabel("Window after", { exact: true }).fill("345");
  await expect(page.getByLabel("Window after", { exact: true })).toHaveValue("34");
  await page
    .getByRole("group", { name: "Schedule from Screening to Randomisation" })
    .getByRole("button", { name: "Save" })
    .click();
  await expect(scheduleRow(page, "Screening", "Randomisation")).toHaveText("14 days (-2 / +34)");
  await scheduleRow(page, "Randomisation", "Phone call").click();
  await page.getByLabel("Days", { exact: true }).fill("99");
  await page.keyboard.press("Escape");
  await expect(page.getByLabel("Days", { exact: true })).toHaveCount(0);
  await expect(scheduleRow(page, "Randomisation", "Phone call")).toHaveText("0 days (-0 / +0)");

  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Studyplan saved successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/studyplans\/stp-[0-9a-f-]+\/edit$/);
  const saved = page.url();
  // Reset restores the plan as loaded.
  await expect(page.getByRole("button", { name: "Reset" })).toHaveCount(0);
  await page.getByRole("button", { name: "Remove Week 4 from plan" }).click();
  await expect(scheduleRow(page, "Phone call", "End of study")).toBeVisible();
  await page.getByRole("button", { name: "Reset" }).click();
  await expect
    .poll(() => namesIn(page, "Studyplan visits"))
    .toEqual(["Screening", "Randomisation", "Phone call", "Week 4", "End of study"]);

  await page.reload();
  await expect(page).toHaveURL(saved);
  await expect
    .poll(() => namesIn(page, "Studyplan visits"))
    .toEqual(["Screening", "Randomisation", "Phone call", "Week 4", "End of study"]);
  await expect(scheduleRow(page, "Screening", "Randomisation")).toHaveText("14 days (-2 / +34)");
  await expect(scheduleRow(page, "Randomisation", "Phone call")).toHaveText("0 days (-0 / +0)");

  // The list now counts the plan: all four mandatory visits planned.
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/studyplans$/);
  await page.getByRole("searchbox", { name: "Search" }).fill(protocolNr);
  await expect(row.getByText("Complete", { exact: true })).toBeVisible();
  await expect(row).toContainText("Studyplan: 5 visits");
  await expect(row).toContainText("Mandatory: 4 of 4 planned");
});

test("the studyplans list shows Complete, Incomplete and Missing; rows open the editor or a new plan", async ({
  page,
}) => {
  await signIn(page, "/studyplans");
  await expect(page.getByRole("heading", { name: "Studyplans" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add" })).toHaveCount(0);
  const rowOf = (name: string) =>
    page.getByRole("row").filter({ has: page.getByRole("cell", { name, exact: true }) });
  await expect(rowOf("TD-2025-001_NORMAL").getByText("Complete", { exact: true })).toBeVisible();
  await expect(rowOf("TD-2025-001_NORMAL")).toContainText("Studyplan: 11 visits");
  await expect(rowOf("TD-2025-001_NORMAL")).toContainText("Mandatory: 10 of 10 planned");
  await expect(rowOf("TD-2025-001_SUB-STUDY").getByText("Incomplete", { exact: true })).toBeVisible();
  // Incomplete: fewer of the study's mandatory visits are planned than it has (issue 15, bug 9).
  const counts = (await rowOf("TD-2025-001_SUB-STUDY").textContent())?.match(/Mandatory: (\d+) of (\d+)/);
  expect(Number(counts?.[1])).toBeLessThan(Number(counts?.[2]));
  await expect(rowOf("TD-2025-002_NORMAL").getByText("Missing", { exact: true })).toBeVisible();

  await rowOf("TD-2025-002_NORMAL").getByRole("cell", { name: "TD-2025-002_NORMAL", exact: true }).click();
  await expect(page).toHaveURL(/\/studies\/std-[0-9a-f-]+\/studyplans\/create$/);
  await expect(page.getByRole("heading", { name: "TD-2025-002_NORMAL", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Back" }).click();

  await page.getByRole("link", { name: "Edit the studyplan of TD-2025-001_NORMAL" }).click();
  await expect(page).toHaveURL(/\/studyplans\/stp-[0-9a-f-]+\/edit$/);
  await expect(page.getByRole("heading", { name: "TD-2025-001_NORMAL", level: 1 })).toBeVisible();
  await expect(scheduleRow(page, "Screening", "Run-in")).toHaveText("14 days (-2 / +2)");
  await expect(pane(page, "Available visits").getByRole("button", { name: /^Drag / })).toHaveCount(1);

  // Leaving with unsaved changes asks first.
  await page.getByRole("button", { name: "Remove Run-in from plan" }).click();
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page.getByRole("dialog", { name: "Unsaved Changes" })).toBeVisible();
  await page.getByRole("button", { name: "Yes, Leave" }).click();
  await expect(page).toHaveURL(/\/studyplans$/);

  await page.getByRole("link", { name: "View the studyplan of TD-2025-001_SUB-STUDY" }).click();
  await expect(page.getByRole("heading", { name: "Studyplan" })).toBeVisible();
  for (const label of [
    "StudyId",
    "VisitId",
    "Sequence",
    "DaysFromStart",
    "AllowedDaysBefore",
    "AllowedDaysAfter",
  ]) {
    await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByText("Sequence", { exact: true })).toHaveCount(4);
});

test("the Calculation choice: a From the first visit plan whose days go down warns without blocking, and From the previous visit is saved", async ({
  page,
  api,
}) => {
  await signIn(page, "/");
  const { study } = await studyWithVisits(api);
  const visits = (await api.get(`/api/studies/${study.uuid}/visits?pagesize=100`)).items as {
    id: number;
    name: string;
  }[];
  const id = (name: string) => visits.find((v) => v.name === name)?.id as number;
  // Typed as intervals: 28 days to Randomisation, then 14 more to Week 4.
  const step = (from: string, to: string | null, days: number, sequence: number) => ({
    fromVisitId: id(from),
    toVisitId: to ? id(to) : null,
    daysFromStart: days,
    allowedDaysBefore: 2,
    allowedDaysAfter: 2,
    sequence,
  });
  const plan = await api.post("/api/studyplans", {
    studyUuid: study.uuid,
    calculationMode: "default",
    schedule: [
      step("Screening", "Randomisation", 28, 1),
      step("Randomisation", "Week 4", 14, 2),
      step("Week 4", null, 0, 3),
    ],
  });

  await page.goto(`/studyplans/${plan.uuid}/edit`);
  const calculation = page.getByRole("group", { name: "Calculation" });
  await expect(calculation.getByRole("radio", { name: "From the first visit" })).toBeChecked();
  const warning = page.getByText(/The days go down along this plan/);
  await expect(warning).toBeVisible();
  await expect(page.getByRole("button", { name: "Save" })).toBeEnabled();

  await calculation.getByRole("radio", { name: "From the previous visit" }).check();
  await expect(warning).toHaveCount(0);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Studyplan saved successfully")).toBeVisible();
  await page.reload();
  await expect(calculation.getByRole("radio", { name: "From the previous visit" })).toBeChecked();
  await expect(warning).toHaveCount(0);
  expect((await api.get(`/api/studyplans/${plan.uuid}`)).calculationMode).toBe("previous");
});

test("the create route of a study that has a plan opens that plan (issue 15, bug 6)", async ({ page }) => {
  await signIn(page, "/studyplans");
  const row = page
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: "TD-2025-001_NORMAL", exact: true }) });
  const edit = await row.getByRole("link", { name: /^Edit / }).getAttribute("href");
  await page.goto("/studies/std-00000000-0000-4000-8000-000000000001/studyplans/create");
  await expect(page).toHaveURL(edit as string);
  await expect(page.getByRole("heading", { name: "TD-2025-001_NORMAL", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Drag / }).first()).toBeVisible();
});

test("at 390 px the editor's move and remove buttons stay on screen (issue 15, bug 3)", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, "/studyplans");
  await page.getByRole("link", { name: /^Edit the studyplan of TD-2025-001_NORMAL/ }).click();
  await expect(page.getByRole("button", { name: /^Drag / }).first()).toBeVisible();
  const buttons = page.getByRole("button", {
    name: /^(Move .* (up|down)|Remove .* from plan|Add .* to plan)$/,
  });
  expect(await buttons.count()).toBeGreaterThan(3);
  const outside = await buttons.evaluateAll((all) =>
    all
      .filter((b) => b.getBoundingClientRect().right > window.innerWidth)
      .map((b) => b.getAttribute("aria-label")),
  );
  expect(outside).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
