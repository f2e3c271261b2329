import { type Api, choose, chooseSite, expect, type Page, signIn, staff, test, unique } from "./fixtures";

/**
 * What the site is owed (issue 45), as the BUD coordinator lives it: a completed visit earns its fee,
 * a statement of the billable earnings is prepared and sent, a payment pays it in part, and the rest
 * shows in the aging. A project of its own, not verified by sample (0 %), due on its statement date.
 */

/** The day `days` from today in the browser's calendar, as date fields take it. */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toLocaleDateString("sv-SE");

const menuLink = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name, exact: true });

/** A project at BUD (fee 1,000.00 EUR over two mandatory visits, 80 % paid, VAT 27 %), its study, plan and a patient. */
async function billableStudy(api: Api, tag: string) {
  const sites = (await api.get("/api/me/sites")).items as { id: number; code: string }[];
  const bud = sites.find((s) => s.code === "BUD") as { id: number };
  const partners = (await api.get("/api/partners?pagesize=100")).items as {
    id: number;
    cro: boolean;
    sponsor: boolean;
  }[];
  const area = (await api.get("/api/therapy-areas?pagesize=1")).items[0] as { id: number };
  const cro = partners.find((p) => p.cro) as { id: number };
  const sponsor = partners.find((p) => p.sponsor) as { id: number };
  const project = await api.post("/api/projects", {
    workingName: `Ledger ${tag}`,
    protocolNr: `LED-${tag}`,
    // The server computes it from the referenced codes.
    internalCode: "computed",
    projectStatusId: 30,
    siteIds: [bud.id],
    details: {
      longName: `Ledger study ${tag}`,
      officialTitle: `A ledger study ${tag}`,
      officialUrl: "https://example.org/ledger",
      phase: 3,
      ipName: "Ledgerol",
      therapyAreaId: area.id,
      croId: cro.id,
      sponsorId: sponsor.id,
    },
    finance: {
      settlementDays: 30,
      paymentDays: 0,
      patientFee: 1000,
      currency: "EUR",
      vat: 27,
      paidPercentage: 80,
      monitoredPercentage: 0,
    },
    settings: { rescreen: false, cohortHandling: false, hospitalisation: false },
  });
  const study = await api.post("/api/studies", {
    projectId: project.id,
    variant: "NORMAL",
    workingName: `LED-${tag}_NORMAL`,
    fpfv: day(-60),
    lpfv: day(60),
    lplv: day(300),
    variantDescription: "",
    projectStatusId: 30,
  });
  const screening = await api.post("/api/visits", {
    studyId: study.id,
    name: "Screening",
    visitTypeId: 20,
    mandatory: 1,
  });
  const baseline = await api.post("/api/visits", {
    studyId: study.id,
    name: "Baseline",
    visitTypeId: 60,
    mandatory: 1,
  });
  await api.post("/api/studyplans", {
    studyId: study.id,
    calculationMode: "default",
    schedule: [
      {
        fromVisitId: screening.id,
        toVisitId: baseline.id,
        daysFromStart: 7,
        allowedDaysBefore: 3,
        allowedDaysAfter: 3,
        sequence: 1,
      },
      {
        fromVisitId: baseline.id,
        toVisitId: null,
        daysFromStart: 0,
        allowedDaysBefore: 0,
        allowedDaysAfter: 0,
        sequence: 2,
      },
    ],
  });
  const lastName = `Könyvelt${tag}`;
  const patient = await api.post("/api/patients", {
    recorderSiteId: bud.id,
    status: 1,
    patientDetail: { firstName: "Ilona", lastName, sex: "FEMALE" },
    address: { countryCode: "HU", city: "Eger" },
    contacts: [],
  });
  const assignment = await api.post("/api/study-patients", {
    studyId: study.id,
    patientId: patient.id,
    screenNr: `L-${tag}`,
    startDate: day(-10),
    active: true,
  });
  return {
    projectName: project.workingName as string,
    studyName: study.workingName as string,
    lastName,
    barcode: patient.barcode as string,
    assignmentUuid: assignment.uuid as string,
  };
}

test("a completed visit earns its fee; a statement of it is sent, paid in part, and the rest is aged", async ({
  page,
  api,
}) => {
  const tag = unique().toUpperCase();
  const { projectName, studyName, lastName, barcode, assignmentUuid } = await billableStudy(api, tag);

  // The coordinator records the screening as completed.
  await signIn(page, "/", staff);
  await chooseSite(page, "BUD");
  await page.goto("/patient-visits/create");
  await choose(page, "Patient", new RegExp(`^${lastName} Ilona`), lastName);
  await choose(page, "Study", new RegExp(studyName));
  await choose(page, "Visit", /^Screening/);
  await page.getByLabel("Visit date").fill(day(-10));
  await choose(page, "Visit status", "Completed");
  await choose(page, "Visit result", "OK");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Patient visit created")).toBeVisible();

  // Its earning: 500.00, of which 400.00 payable and 100.00 held back, billable.
  await menuLink(page, "Earnings").click();
  await choose(page, "Project", projectName);
  const earning = page.getByRole("row").filter({ hasText: barcode });
  await expect(earning).toContainText("500.00");
  await expect(earning).toContainText("400.00");
  await expect(earning).toContainText("100.00");
  await expect(earning).toContainText("Billable");

  // A statement of it: net 400.00, VAT 108.00, gross 508.00; sent.
  await menuLink(page, "Statements").click();
  await page.getByRole("button", { name: "Add" }).click();
  await choose(page, "Project", projectName);
  await page.getByLabel("Period to").fill(day(0));
  await page.getByLabel("Statement date").fill(day(0));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Statement prepared")).toBeVisible();
  await expect(page.getByRole("table", { name: "Lines" })).toContainText(barcode);
  await expect(page.getByRole("list", { name: "Totals" }).or(page.getByLabel("Totals"))).toContainText(
    "508.00",
  );
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Sent", { exact: true }).first()).toBeVisible();

  // 300.00 received and allocated to it: partially paid, 208.00 open.
  await menuLink(page, "Payments").click();
  await page.getByRole("button", { name: "Add" }).click();
  await choose(page, "Project", projectName);
  await page.getByLabel("Received date").fill(day(0));
  await page.getByLabel("Amount", { exact: true }).fill("300.00");
  await page.getByRole("textbox", { name: "Reference" }).fill(`Transfer ${tag}`);
  await page
    .getByRole("textbox", { name: new RegExp(`^Allocation to the statement of ${day(0)}`) })
    .fill("300.00");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(/Payment (created|saved|recorded)/)).toBeVisible();

  // Due today (0 payment days): in ten days it is 1–30 days late.
  await menuLink(page, "Aging").click();
  await choose(page, "Project", projectName);
  await page.getByLabel("As of").fill(day(10));
  // Not yet due, 1–30, 31–60, 61–90, over 90, total open; unbilled, awaiting verification, held back, unapplied.
  const values = page.getByRole("main").getByRole("table").getByRole("row").last().getByRole("cell");
  await expect(values).toHaveText([
    "0.00",
    "208.00",
    "0.00",
    "0.00",
    "0.00",
    "208.00",
    "0.00",
    "0.00",
    "100.00",
    "0.00",
  ]);

  // The sponsor will not pay the rest: written off with its reason, the statement counts as paid.
  await menuLink(page, "Statements").click();
  await page.getByRole("row").filter({ hasText: projectName }).first().click();
  await page.getByLabel("Reason for the write-off").fill("Bank charges of the sponsor");
  await page.getByRole("button", { name: "Write off" }).click();
  await page
    .getByRole("dialog", { name: "Write off the open amount" })
    .getByRole("button", { name: "Write off" })
    .click();
  await expect(page.getByText("Open amount written off")).toBeVisible();
  await expect(page.getByLabel("Totals")).toContainText("Written off208.00");
  const status = page.getByText("Status", { exact: true }).first().locator("xpath=following-sibling::*[1]");
  await expect(status).toHaveText("Paid");

  // The patient's assignment closed, a close-out statement releases the 100.00 held back.
  const read = await api.get(`/api/study-patients/${assignmentUuid}`);
  await api.put(
    `/api/study-patients/${assignmentUuid}`,
    { ...read, active: false, closeReason: "EOS", closeDate: day(0) },
    "End of study",
  );
  await menuLink(page, "Statements").click();
  await page.getByRole("button", { name: "Add" }).click();
  await choose(page, "Project", projectName);
  await page.getByLabel("Period to").fill(day(0));
  await page.getByLabel("Statement date").fill(day(0));
  await page.getByLabel("Close-out statement").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Statement prepared")).toBeVisible();
  await expect(page.getByRole("table", { name: "Lines" })).toContainText("held back released");
  await expect(page.getByLabel("Totals")).toContainText("Net100.00");
});
