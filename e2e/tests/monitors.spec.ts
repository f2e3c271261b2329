import type { Browser } from "@playwright/test";
import {
  type Api,
  choose,
  chooseSite,
  demoStudyUuid,
  expect,
  giveReason,
  type Page,
  signIn,
  staff,
  test,
  unique,
} from "./fixtures";

/**
 * Monitors at work (issue 44), the way the three people live it: an administrator assigns a monitor
 * to the demo study for this week; the monitor signs in, never sees a patient's SSN or name, verifies
 * two visits and raises a query; the BUD coordinator answers it from the worklist; the monitor closes
 * it; the coordinator corrects a verified visit and the monitor finds it Reopened.
 */

const monitor = { email: "peter.checker@example.com", password: "monitor1234" };

/** The day `days` from today in the browser's calendar, as date fields take it. */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toLocaleDateString("sv-SE");

const menuLink = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name, exact: true });

/** A new BUD patient with a known SSN, assigned to the demo study, with two completed visits. */
async function patientWithTwoVisits(api: Api, lastName: string, ssn: string) {
  const study = await api.get(`/api/studies/${demoStudyUuid}`);
  const bud = (await api.get("/api/me/sites")).items.find((s: { code: string }) => s.code === "BUD");
  const patient = await api.post("/api/patients", {
    recorderSiteId: bud.id,
    status: 1,
    patientDetail: { firstName: "Vilma", lastName, sex: "FEMALE", ssn },
    address: { countryCode: "HU", city: "Győr" },
    contacts: [],
  });
  await api.post("/api/study-patients", {
    studyId: study.id,
    patientId: patient.id,
    screenNr: `M-${unique()}`,
    startDate: day(-20),
    active: true,
  });
  const visits = (await api.get(`/api/visits?studyId=${study.id}&pagesize=100`)).items as {
    id: number;
    name: string;
  }[];
  const recorded = [];
  for (const [name, offset] of [
    ["Screening", -20],
    ["Run-in", -13],
  ] as const) {
    const visit = visits.find((v) => v.name === name);
    expect(visit, `the demo study has ${name}`).toBeTruthy();
    recorded.push(
      await api.post("/api/patient-visits", {
        patientId: patient.id,
        studyId: study.id,
        visitId: visit?.id,
        visitDate: day(offset),
        visitStatus: "COMPLETED",
        visitResult: "OK",
        notes: "",
      }),
    );
  }
  return { barcode: patient.barcode as string, studyName: study.workingName as string, visits: recorded };
}

async function pageOf(browser: Browser, user: { email: string; password: string }, path = "/") {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, path, user);
  return page;
}

test("a monitor assigned this week verifies two visits and raises a query; the site answers; a correction reopens the verification", async ({
  page,
  api,
  browser,
}) => {
  const lastName = `Monitorozott${unique()}`;
  const ssn = `SSN${unique()}${unique()}`;
  const { barcode, studyName, visits } = await patientWithTwoVisits(api, lastName, ssn);

  // The administrator assigns Peter Checker to the demo study for this week.
  await signIn(page, "/monitor-assignments/create");
  await choose(page, "Monitor", /Peter Checker/);
  await choose(page, "Study", studyName);
  await page.getByLabel("Access from").fill(day(-1));
  await page.getByLabel("Access to").fill(day(6));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Monitor assignment created")).toBeVisible();

  // The monitor signs in on the same page and finds only their work in the menu.
  const monitorPage = await (await browser.newContext()).newPage();
  await monitorPage.goto("/login");
  await monitorPage.getByLabel("E-mail").fill(monitor.email);
  await monitorPage.getByLabel("Password", { exact: true }).fill(monitor.password);
  await monitorPage.getByRole("button", { name: "Sign In" }).click();
  const nav = monitorPage.getByRole("navigation", { name: "Main menu" });
  await expect(nav.getByRole("link")).toHaveText(["Home", "Studies", "Source verification", "Queries"]);
  await expect(monitorPage.getByTitle("Active site")).toHaveCount(0);

  // Source verification: the new patient's two completed visits are pending.
  await menuLink(monitorPage, "Source verification").click();
  await expect(monitorPage.getByRole("heading", { name: "Source verification" })).toBeVisible();
  await monitorPage.getByRole("button", { name: "Pending", exact: true }).click();
  await monitorPage.getByLabel("Search").fill(barcode);
  // The search is sent after a pause in typing; a selection made before it would be cleared.
  await expect(monitorPage).toHaveURL(new RegExp(`searchTerm=${barcode}`));
  const table = monitorPage.getByRole("table", { name: "Source verification" });
  const rows = table.getByRole("row").filter({ hasText: barcode });
  await expect(rows).toHaveCount(2);
  // No SSN, no name, anywhere on the monitor's pages.
  const noIdentity = async (p: Page) => {
    await expect(p.getByRole("main")).not.toContainText(ssn);
    await expect(p.getByRole("main")).not.toContainText(lastName);
  };
  await noIdentity(monitorPage);

  // Verify one, then the other by selection.
  await rows.first().getByRole("button", { name: "Verify" }).click();
  await monitorPage.getByRole("button", { name: "All", exact: true }).click();
  await expect(
    table.getByRole("row").filter({ hasText: barcode }).filter({ hasText: "Verified" }),
  ).toHaveCount(1);
  const pendingRow = table.getByRole("row").filter({ hasText: barcode }).filter({ hasText: "Pending" });
  await pendingRow.getByRole("checkbox").check();
  await monitorPage.getByRole("button", { name: "Verify selected (1)" }).click();
  await expect(
    table.getByRole("row").filter({ hasText: barcode }).filter({ hasText: "Verified" }),
  ).toHaveCount(2);

  // The first visit: its detail shows who verified it; the monitor raises a query there.
  await monitorPage.goto(`/patient-visits/${visits[0].uuid}`);
  await expect(monitorPage.getByText(/^Verified by Peter Checker on /)).toBeVisible();
  await noIdentity(monitorPage);
  await monitorPage.getByRole("link", { name: "Raise query" }).click();
  const question = `Source shows 09:00, please check ${unique()}`;
  await monitorPage.getByRole("textbox", { name: "Query" }).fill(question);
  await monitorPage.getByRole("button", { name: "Save" }).click();
  await expect(monitorPage.getByText(question).first()).toBeVisible();
  await expect(monitorPage.getByText("Open", { exact: true }).first()).toBeVisible();
  const queryUrl = monitorPage.url();

  // The coordinator sees it on the worklist's Queries chip and answers it.
  const coordinator = await pageOf(browser, staff);
  await chooseSite(coordinator, "BUD");
  await menuLink(coordinator, "Worklist").click();
  await coordinator
    .getByRole("main")
    .getByRole("link", { name: /^Queries \d+$/ })
    .click();
  await coordinator
    .getByRole("row")
    .filter({ hasText: question.slice(0, 20) })
    .first()
    .click();
  await expect(coordinator.getByText(question).first()).toBeVisible();
  await coordinator.getByRole("textbox", { name: "Message" }).fill("Corrected from the source: 09:00 it is.");
  await coordinator.getByRole("button", { name: "Send" }).click();
  await expect(coordinator.getByRole("region", { name: "Messages" })).toContainText(
    "Corrected from the source: 09:00 it is.",
  );
  await expect(coordinator.getByText("Answered", { exact: true }).first()).toBeVisible();

  // The monitor reads the answer and closes the query.
  await monitorPage.goto(queryUrl);
  await expect(monitorPage.getByRole("region", { name: "Messages" })).toContainText(
    "Corrected from the source: 09:00 it is.",
  );
  await monitorPage.getByRole("button", { name: "Close query" }).click();
  await expect(monitorPage.getByRole("button", { name: "Reopen query" })).toBeVisible();

  // The coordinator corrects the verified visit's time: its verification reopens.
  await coordinator.goto(`/patient-visits/${visits[0].uuid}/edit`);
  await coordinator.getByLabel("Visit time").fill("09:00");
  await coordinator.getByRole("button", { name: "Save" }).click();
  // A recorded visit's correction says why (issue 46, point 1).
  await giveReason(coordinator, "Source corrected");
  await expect(
    coordinator.getByText("Patient visit saved").or(coordinator.getByText("Patient visit updated")),
  ).toBeVisible();

  await monitorPage.goto("/source-verification");
  await monitorPage.getByRole("button", { name: "Reopened", exact: true }).click();
  await monitorPage.getByLabel("Search").fill(barcode);
  await expect(monitorPage).toHaveURL(new RegExp(`searchTerm=${barcode}`));
  await expect(
    monitorPage
      .getByRole("table", { name: "Source verification" })
      .getByRole("row")
      .filter({ hasText: barcode }),
  ).toHaveText([/Reopened/]);
  await noIdentity(monitorPage);
});
