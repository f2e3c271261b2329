import { test as base, expect, type Page } from "@playwright/test";

export const admin = { email: "admin@example.com", password: "admin1234" };

/** Signs in through the API (the refresh cookie lands in this page's context), then opens `path`. */
export async function signIn(page: Page, path = "/") {
  const response = await page.request.post("/api/auth", {
    data: { username: admin.email, password: admin.password },
  });
  expect(response.ok()).toBeTruthy();
  await page.goto(path);
}

/** A short unique suffix, so tests sharing one database never collide. */
export function unique(): string {
  return Math.random().toString(36).slice(2, 7);
}

export const test = base;
export { expect, type Page };

/** Chooses the active site in the frame's site selector. */
export async function chooseSite(page: Page, code: string) {
  await page.getByTitle("Active site").click();
  await page.getByRole("list", { name: "Sites" }).getByRole("button").filter({ hasText: code }).click();
  await expect(page.getByTitle("Active site")).toContainText(`${code} - `);
}

/** The administrator's headers for API calls (bearer and CSRF token). */
async function adminHeaders(page: Page) {
  const auth = await page.request.post("/api/auth", {
    data: { username: admin.email, password: admin.password },
  });
  const { accessToken, csrfToken } = (await auth.json()).data;
  return { authorization: `Bearer ${accessToken}`, "x-csrf-token": csrfToken };
}

type PatientPart = { firstName: string; sex: string; city: string; phone: string };

/** Writes a patient of the BUD site through the API as the patient form would; answers its record. */
async function createBudPatient(
  page: Page,
  headers: Record<string, string>,
  lastName: string,
  part: PatientPart,
) {
  const sites = await page.request.get("/api/me/sites", { headers });
  const bud = (await sites.json()).data.items.find((s: { code: string }) => s.code === "BUD");
  const response = await page.request.post("/api/patients", {
    headers,
    data: {
      recorderSiteId: bud.id,
      status: 1,
      patientDetail: { firstName: part.firstName, lastName, sex: part.sex },
      address: { countryCode: "HU", city: part.city },
      contacts: [{ contactType: "PHONE", value: part.phone }],
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()).data as { id: number; barcode: string };
}

/** A new patient of the BUD site, written through the API as the patient form would. */
export async function newPatient(page: Page, lastName: string) {
  const headers = await adminHeaders(page);
  const patient = await createBudPatient(page, headers, lastName, {
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
export async function newAssignedPatient(page: Page, lastName: string, screenNr = "S-778") {
  const headers = await adminHeaders(page);
  const patient = await createBudPatient(page, headers, lastName, {
    firstName: "Bence",
    sex: "MALE",
    city: "Pécs",
    phone: "+36 30 555 0202",
  });
  const study = (await (await page.request.get(`/api/studies/${demoStudyUuid}`, { headers })).json()).data;
  const assignment = await page.request.post("/api/study-patients", {
    headers,
    data: { patientId: patient.id, studyId: study.id, screenNr, active: true },
  });
  expect(assignment.status()).toBe(201);
  return { studyName: study.workingName as string, uuid: (await assignment.json()).data.uuid as string };
}
