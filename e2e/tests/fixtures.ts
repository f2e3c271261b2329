import {
  type BrowserContext,
  test as base,
  expect,
  type Frame,
  type Locator,
  type Page,
} from "@playwright/test";

export const admin = { email: "admin@example.com", password: "admin1234" };
/** The demo site coordinator (README): assigned to BUD only. */
export const staff = { email: "staff@example.com", password: "staff1234" };

/** Signs in through the API (the refresh cookie lands in this page's context), then opens `path`. */
export async function signIn(page: Page, path = "/", user = admin) {
  const response = await page.request.post("/api/auth", {
    data: { username: user.email, password: user.password },
  });
  expect(response.ok()).toBeTruthy();
  await page.goto(path);
}

/** A short unique suffix, so tests sharing one database never collide. */
export function unique(): string {
  return Math.random().toString(36).slice(2, 7);
}

export { expect, type Page };

/** Opens a list row's record by its View action (a link or a button, as the row's menu renders it). */
export async function openView(row: Locator) {
  await row
    .getByRole("link", { name: /View/ })
    .or(row.getByRole("button", { name: /View/ }))
    .first()
    .click();
}

/**
 * Picks an option of the select labelled `label` as a person does: opens it, types `search` into its
 * search box when given, and clicks the option by its visible name (a string matches it exactly).
 */
export async function choose(page: Page, label: string, option: string | RegExp, search?: string) {
  await page.getByLabel(label, { exact: true }).click();
  if (search !== undefined) await page.getByPlaceholder("Search...").fill(search);
  await page.getByRole("option", { name: option, exact: typeof option === "string" }).click();
}

/** Chooses the active site in the frame's site selector. */
export async function chooseSite(page: Page, code: string) {
  await page.getByTitle("Active site").click();
  await page.getByRole("list", { name: "Sites" }).getByRole("button").filter({ hasText: code }).click();
  await expect(page.getByTitle("Active site")).toContainText(`${code} - `);
}

/**
 * Answers "Reason for the change", which an edit or removal of recorded clinical data (a patient, an
 * assignment, a recorded visit) asks once Save or Remove's Yes is clicked (issue 46, point 1).
 */
export async function giveReason(page: Page, reason = "Transcription error", confirm = "Save") {
  const dialog = page.getByRole("dialog", { name: "Reason for the change" });
  await dialog.getByRole("radio", { name: reason }).check();
  await dialog.getByRole("button", { name: confirm }).click();
  await expect(dialog).toHaveCount(0);
}

/** The administrator's API, called as the app calls it: bearer token and CSRF header; answers `data`. */
export type Api = {
  // biome-ignore lint/suspicious/noExplicitAny: set-up reads whatever the answer holds, as JSON does
  get: (path: string) => Promise<any>;
  /** A create: asserts the 201 (or shows the answer). */
  // biome-ignore lint/suspicious/noExplicitAny: as get
  post: (path: string, data: object) => Promise<any>;
  /** An update, with a reason for the change (recorded clinical data needs one): asserts the 200. */
  // biome-ignore lint/suspicious/noExplicitAny: as get
  put: (path: string, data: object, reason?: string) => Promise<any>;
};

/** Signs in through the API (the refresh cookie lands in the page's context, as signIn does). */
export async function apiOf(page: Page): Promise<Api> {
  const auth = await page.request.post("/api/auth", {
    data: { username: admin.email, password: admin.password },
  });
  expect(auth.ok()).toBeTruthy();
  const { accessToken, csrfToken } = (await auth.json()).data;
  const headers = { authorization: `Bearer ${accessToken}`, "x-csrf-token": csrfToken };
  return {
    get: async (path) => (await (await page.request.get(path, { headers })).json()).data,
    post: async (path, data) => {
      const response = await page.request.post(path, { headers, data });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()).data;
    },
    put: async (path, data, reason) => {
      const response = await page.request.put(path, {
        headers: reason ? { ...headers, "x-change-reason": encodeURIComponent(reason) } : headers,
        data,
      });
      expect(response.status(), await response.text()).toBe(200);
      return (await response.json()).data;
    },
  };
}

/** The page events tests listen to (the fixture itself does not): their listeners go after each test. */
const pageEvents = [
  "console",
  "pageerror",
  "request",
  "response",
  "requestfinished",
  "requestfailed",
  "dialog",
];

/**
 * Puts the worker's page back as a new one would be for the next test (decision 258): extra pages
 * closed, the test's listeners and routes taken off, no cookies, no local or session storage at any
 * origin the test went to, the default viewport. The page ends on the app origin's config.json.
 */
async function resetForNextTest(page: Page, baseURL: string, visited: Set<string>) {
  const context = page.context();
  await Promise.all(context.pages().map((other) => (other === page ? null : other.close())));
  if (page.isClosed()) return;
  for (const event of pageEvents) page.removeAllListeners(event);
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await context.unrouteAll({ behavior: "ignoreErrors" });
  // Each origin's config.json runs none of the app: nothing of it runs on to write storage or a cookie
  // back. Another origin (the short-timeout server) costs a new renderer; the app's own comes last.
  const home = new URL(baseURL).origin;
  const others = new Set(
    [...visited].filter((url) => url.startsWith("http")).map((url) => new URL(url).origin),
  );
  others.delete(home);
  for (const origin of [...others, home]) {
    await page.goto(`${origin}/config.json`);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
  }
  await context.clearCookies();
  await page.setViewportSize(defaultViewport);
}

const defaultViewport = { width: 1280, height: 720 };

/**
 * Tests get `api`, the administrator's API, for setting up what the test is not about; and `page`,
 * the worker's one page, reset between tests (decision 258): a new browser context and the app's
 * first load in it cost ~2 s of a core per test on a 2-core machine, most of the end-to-end time.
 * A test that needs a second person opens a context of its own (`browser.newContext()`).
 */
export const test = base.extend<{ api: Api }, { workerContext: BrowserContext }>({
  workerContext: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext({
        baseURL: workerInfo.project.use.baseURL,
        viewport: defaultViewport,
      });
      await use(context);
      await context.close();
    },
    { scope: "worker" },
  ],
  context: async ({ workerContext }, use) => {
    await use(workerContext);
  },
  page: async ({ workerContext, baseURL }, use, testInfo) => {
    const page = workerContext.pages()[0] ?? (await workerContext.newPage());
    const visited = new Set<string>();
    const track = (frame: Frame) => {
      if (frame === page.mainFrame()) visited.add(frame.url());
    };
    page.on("framenavigated", track);
    await use(page);
    page.off("framenavigated", track);
    // After a failure Playwright starts a new worker: the page is kept as it was, for its screenshot.
    if (testInfo.status === testInfo.expectedStatus) await resetForNextTest(page, baseURL as string, visited);
  },
  api: async ({ page }, use) => {
    await use(await apiOf(page));
  },
});

type PatientPart = { firstName: string; sex: string; city: string; phone: string };

/** Writes a patient of the BUD site through the API as the patient form would; answers its record. */
async function createBudPatient(api: Api, lastName: string, part: PatientPart) {
  const bud = (await api.get("/api/me/sites")).items.find((s: { code: string }) => s.code === "BUD");
  return (await api.post("/api/patients", {
    recorderSiteId: bud.id,
    status: 1,
    patientDetail: { firstName: part.firstName, lastName, sex: part.sex },
    address: { countryCode: "HU", city: part.city },
    contacts: [{ contactType: "PHONE", value: part.phone }],
  })) as { id: number; barcode: string };
}

/** A new patient of the BUD site, written through the API as the patient form would. */
export async function newPatient(page: Page, lastName: string) {
  const patient = await createBudPatient(await apiOf(page), lastName, {
    firstName: "Réka",
    sex: "FEMALE",
    city: "Szeged",
    phone: "+36 30 555 0101",
  });
  return patient.barcode;
}

export const demoStudyUuid = "std-00000000-0000-4000-8000-000000000001";

/**
 * A new BUD patient (first name Bence) assigned to the demo study, written through the API as the
 * editors would; answers the study's working name and the assignment's uuid.
 */
export async function newAssignedPatient(page: Page, lastName: string, screenNr = `S-${unique()}`) {
  const api = await apiOf(page);
  const patient = await createBudPatient(api, lastName, {
    firstName: "Bence",
    sex: "MALE",
    city: "Pécs",
    phone: "+36 30 555 0202",
  });
  const study = await api.get(`/api/studies/${demoStudyUuid}`);
  const assignment = await api.post("/api/study-patients", {
    patientId: patient.id,
    studyId: study.id,
    screenNr,
    active: true,
  });
  return { studyName: study.workingName as string, uuid: assignment.uuid as string, screenNr };
}
