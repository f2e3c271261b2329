import type {
  CalculationMode,
  MonitorInput,
  PatientInput,
  PatientVisitInput,
  UserInput,
} from "@trialdesk/domain";
import {
  newUuid,
  type PartnerInput,
  type ProjectInput,
  projectInternalCodeOf,
  rebuildSchedule,
  type ScheduleEntry,
  type SiteInput,
  type StudyInput,
  type StudyPatientInput,
  type StudyplanInput,
  studyWorkingName,
  type TherapyAreaInput,
  type TherapyCategoryInput,
  type VisitInput,
} from "@trialdesk/domain";
import { eq, inArray, sql } from "drizzle-orm";
import { hashPassword } from "../auth/passwords";
import type { Db, Tx } from "../db/client";
import { monitors } from "../resources/monitors/monitors.table";
import { partners } from "../resources/partners/partners.table";
import { patientVisits } from "../resources/patient-visits/patient-visits.table";
import { insertPatient } from "../resources/patients/patients.resource";
import { projectSiteLinks } from "../resources/projects/projects.resource";
import { projects } from "../resources/projects/projects.table";
import { sites } from "../resources/sites/sites.table";
import { studies } from "../resources/studies/studies.table";
import { studyPatients } from "../resources/study-patients/study-patients.table";
import { studyplanScheduleEntries, studyplans } from "../resources/studyplans/studyplans.table";
import { therapyAreas } from "../resources/therapy-areas/therapy-areas.table";
import { therapyCategories } from "../resources/therapy-categories/therapy-categories.table";
import { userSiteLinks } from "../resources/users/users.resource";
import { users } from "../resources/users/users.table";
import { visits } from "../resources/visits/visits.table";
import { rebuildVisitSchedules } from "../resources/worklist/visit-schedule";

/**
 * The one factory module (DESIGN §6): valid records for server tests, the demo seed and the
 * end-to-end tests. `…Input` builds a wire body as a client would send it; `create…` writes a row.
 */

/** The study the home page's Visit summary tile points at once the demo data has studies. */
export const demoStudyUuid = "std-00000000-0000-4000-8000-000000000001";
export const demoAdmin = {
  email: "admin@example.com",
  password: "admin1234",
  firstName: "Ada",
  lastName: "Admin",
};

let counter = 0;
const next = () => ++counter;
/** A 3-character code unique within one process: a letter and two base-36 digits. */
export const uniqueCode = (letter = "X") =>
  `${letter}${(next() % 1296).toString(36).padStart(2, "0").toUpperCase()}`;

export function therapyCategoryInput(overrides: Partial<TherapyCategoryInput> = {}): TherapyCategoryInput {
  const n = next();
  return { uuid: newUuid("therapy-categories"), name: `Category ${n}`, code: uniqueCode("C"), ...overrides };
}

export function therapyAreaInput(
  therapyCategoryId: number,
  overrides: Partial<TherapyAreaInput> = {},
): TherapyAreaInput {
  const n = next();
  return {
    uuid: newUuid("therapy-areas"),
    name: `Area ${n}`,
    code: uniqueCode("A"),
    therapyCategoryId,
    ...overrides,
  };
}

type DbOrTx = Db | Tx;

export async function createTherapyCategory(db: DbOrTx, overrides: Partial<TherapyCategoryInput> = {}) {
  const { id: _, version: __, ...input } = therapyCategoryInput(overrides);
  const [row] = await db
    .insert(therapyCategories)
    .values({ ...input, uuid: input.uuid ?? newUuid("therapy-categories") })
    .returning();
  return row;
}

export async function createTherapyArea(
  db: DbOrTx,
  therapyCategoryId: number,
  overrides: Partial<TherapyAreaInput> = {},
) {
  const input = therapyAreaInput(therapyCategoryId, overrides);
  const [row] = await db
    .insert(therapyAreas)
    .values({
      uuid: input.uuid ?? newUuid("therapy-areas"),
      name: input.name,
      code: input.code,
      therapyCategoryId: input.therapyCategoryId ?? therapyCategoryId,
    })
    .returning();
  return row;
}

/** A site as the form sends it: the barcode prefix without its separator, which the server adds. */
export function siteInput(overrides: Partial<SiteInput> = {}): SiteInput {
  const code = uniqueCode("S");
  return {
    uuid: newUuid("sites"),
    name: `Site ${code} Clinical Centre`,
    shortName: `Site ${code}`,
    code,
    barcodePrefix: code,
    address: "Main street 1.",
    city: "Budapest",
    countryCode: "HU",
    ...overrides,
  };
}

export function partnerInput(overrides: Partial<PartnerInput> = {}): PartnerInput {
  const code = uniqueCode("P");
  return {
    uuid: newUuid("partners"),
    name: `Partner ${code}`,
    code,
    cro: false,
    sponsor: false,
    ...overrides,
  };
}

export type SiteValues = typeof sites.$inferInsert;

export async function createSite(db: DbOrTx, overrides: Partial<SiteValues> = {}) {
  const code = overrides.code ?? uniqueCode("S");
  const [row] = await db
    .insert(sites)
    .values({
      uuid: newUuid("sites"),
      name: `Site ${code}`,
      shortName: `Site ${code}`,
      code,
      barcodePrefix: `${code}-`,
      ...overrides,
    })
    .returning();
  return row;
}

export async function createPartner(db: DbOrTx, overrides: Partial<typeof partners.$inferInsert> = {}) {
  const code = overrides.code ?? uniqueCode("P");
  const [row] = await db
    .insert(partners)
    .values({ uuid: newUuid("partners"), name: `Partner ${code}`, code, ...overrides })
    .returning();
  return row;
}

export type UserOptions = {
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  isAdmin?: boolean;
  isActive?: boolean;
  siteIds?: number[];
};

/** A user who can sign in with `password` (default "password123"). */
export async function createUser(db: DbOrTx, options: UserOptions = {}) {
  const n = next();
  const password = options.password ?? "password123";
  const [row] = await db
    .insert(users)
    .values({
      uuid: newUuid("users"),
      email: options.email ?? `user${n}.${Date.now()}@example.com`,
      passwordHash: await hashPassword(password),
      lastPasswordChangeDate: sql`now()`,
      firstName: options.firstName ?? "Test",
      lastName: options.lastName ?? `User ${n}`,
      isAdmin: options.isAdmin ?? false,
      isActive: options.isActive ?? true,
    })
    .returning();
  await userSiteLinks.write(db, row.id, options.siteIds ?? [], false);
  return { ...row, password };
}

/** The demo staff member (embedded demo only, like the admin): no administrator, the first demo site only. */
export const demoStaff = {
  email: "staff@example.com",
  password: "staff1234",
  firstName: "Sam",
  lastName: "Staff",
};

/** A user as the Users form sends it (a new one: with a password and its confirmation). */
export function userInput(overrides: Partial<UserInput> = {}): UserInput {
  const n = next();
  return {
    uuid: newUuid("users"),
    email: `user${n}.${Date.now()}@example.com`,
    password: "password123",
    password2: "password123",
    isActive: true,
    isAdmin: false,
    profile: { firstName: "Test", lastName: `User ${n}` },
    siteIds: [],
    ...overrides,
  };
}

/** A monitor as the Monitors form sends it. */
export function monitorInput(overrides: Partial<MonitorInput> = {}): MonitorInput {
  const n = next();
  return {
    uuid: newUuid("monitors"),
    email: `monitor${n}.${Date.now()}@example.com`,
    firstName: "Mona",
    lastName: `Monitor ${n}`,
    password: "password123",
    password2: "password123",
    isActive: true,
    ...overrides,
  };
}

/** A monitor row (study monitors are on record only; they do not sign in to this app). */
export async function createMonitor(db: DbOrTx, overrides: Partial<MonitorInput> = {}) {
  const input = monitorInput(overrides);
  const [row] = await db
    .insert(monitors)
    .values({
      uuid: input.uuid ?? newUuid("monitors"),
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash: await hashPassword(input.password ?? "password123"),
      isActive: input.isActive ?? true,
    })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** Creates an administrator with every site, or resets the password of an existing account. */
export async function upsertAdmin(
  db: Db,
  options: { email: string; password: string; firstName?: string; lastName?: string },
) {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, options.email.toLowerCase()));
  const allSites = await db.select({ id: sites.id }).from(sites);
  if (existing) {
    await db
      .update(users)
      .set({
        passwordHash: await hashPassword(options.password),
        lastPasswordChangeDate: sql`now()`,
        isAdmin: true,
        isActive: true,
        version: sql`${users.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, existing.id));
    return { id: existing.id, created: false };
  }
  const user = await createUser(db, {
    email: options.email,
    password: options.password,
    firstName: options.firstName ?? "Admin",
    lastName: options.lastName ?? "User",
    isAdmin: true,
    siteIds: allSites.map((s) => s.id),
  });
  return { id: user.id, created: true };
}

/** What a project refers to: its CRO and sponsor partners, therapy area and sites. */
export type ProjectRefs = { croId: number; sponsorId: number; therapyAreaId: number; siteIds: number[] };

/** A project with every tab filled, as the editor sends it; the server computes the internal code. */
export function projectInput(refs: ProjectRefs, overrides: Partial<ProjectInput> = {}): ProjectInput {
  const n = next();
  return {
    uuid: newUuid("projects"),
    workingName: `Project ${n}`,
    protocolNr: `PR-${Date.now().toString(36).toUpperCase()}-${String(n).padStart(3, "0")}`,
    internalCode: "client value, ignored",
    projectStatusId: 30,
    siteIds: refs.siteIds,
    details: {
      longName: `Long name of project ${n}`,
      officialTitle: `A randomised, double-blind study number ${n}`,
      officialUrl: `https://clinicaltrials.example.org/study/${n}`,
      phase: 3,
      ipName: `Investigational product ${n}`,
      therapyAreaId: refs.therapyAreaId,
      croId: refs.croId,
      sponsorId: refs.sponsorId,
    },
    finance: {
      settlementDays: 30,
      paymentDays: 45,
      patientFee: 1250.5,
      currency: "EUR",
      vat: 27,
      paidPercentage: 80,
      monitoredPercentage: 100,
    },
    settings: { rescreen: true, cohortHandling: false, hospitalisation: true },
    ...overrides,
  };
}

/** Writes a project and its sites, with the internal code computed from the referenced codes. */
export async function createProject(db: DbOrTx, refs: ProjectRefs, overrides: Partial<ProjectInput> = {}) {
  const input = projectInput(refs, overrides);
  const partnerRows = await db
    .select({ id: partners.id, code: partners.code })
    .from(partners)
    .where(inArray(partners.id, [input.details.croId ?? 0, input.details.sponsorId ?? 0]));
  const areaRows = await db
    .select({ id: therapyAreas.id, code: therapyAreas.code })
    .from(therapyAreas)
    .where(eq(therapyAreas.id, input.details.therapyAreaId ?? 0));
  const [row] = await db
    .insert(projects)
    .values({
      uuid: input.uuid ?? newUuid("projects"),
      workingName: input.workingName,
      protocolNr: input.protocolNr,
      internalCode: projectInternalCodeOf(input, partnerRows, areaRows),
      projectStatusId: input.projectStatusId as number,
      ...input.details,
      phase: input.details.phase as number,
      therapyAreaId: input.details.therapyAreaId as number,
      croId: input.details.croId as number,
      sponsorId: input.details.sponsorId as number,
      ...input.finance,
      patientFee: input.finance.patientFee?.toString() ?? null,
      ...input.settings,
    })
    .returning();
  await projectSiteLinks.write(db, row.id, input.siteIds ?? [], false);
  return row;
}

/** A study as the Studies form sends it; the working name follows the protocol number and variant. */
export function studyInput(
  project: { id: number; protocolNr: string },
  overrides: Partial<StudyInput> = {},
): StudyInput {
  const variant = overrides.variant ?? "NORMAL";
  return {
    uuid: newUuid("studies"),
    projectId: project.id,
    variant,
    workingName: studyWorkingName(project.protocolNr, variant),
    fpfv: "2025-03-03",
    lpfv: "2026-06-30",
    lplv: "2027-03-31",
    variantDescription: "",
    projectStatusId: 30,
    ...overrides,
  };
}

/** Writes a study of `project`. */
export async function createStudy(
  db: DbOrTx,
  project: { id: number; protocolNr: string },
  overrides: Partial<StudyInput> = {},
) {
  const input = studyInput(project, overrides);
  const [row] = await db
    .insert(studies)
    .values({
      uuid: input.uuid ?? newUuid("studies"),
      projectId: project.id,
      variant: input.variant as string,
      workingName: input.workingName,
      fpfv: input.fpfv as string,
      lpfv: input.lpfv as string,
      lplv: input.lplv as string,
      variantDescription: input.variantDescription || null,
      projectStatusId: input.projectStatusId as number,
    })
    .returning();
  return row;
}

/** A visit definition as the Visits form sends it (a mandatory control visit unless told otherwise). */
export function visitInput(studyId: number, overrides: Partial<VisitInput> = {}): VisitInput {
  const n = next();
  return { uuid: newUuid("visits"), studyId, name: `Week ${n}`, visitTypeId: 60, mandatory: 1, ...overrides };
}

/** Writes a visit definition of a study. */
export async function createVisit(db: DbOrTx, studyId: number, overrides: Partial<VisitInput> = {}) {
  const input = visitInput(studyId, overrides);
  const [row] = await db
    .insert(visits)
    .values({
      uuid: input.uuid ?? newUuid("visits"),
      studyId,
      name: input.name,
      visitTypeId: input.visitTypeId as number,
      mandatory: input.mandatory === 1,
    })
    .returning();
  return row;
}

/** Days, window before and window after of each step of a plan, in order. */
export type StepSettings = [days: number, before: number, after: number];

/**
 * A studyplan as the editor sends it: `visitIds` in order, each step's settings from `steps` (the
 * last visit has no step; missing steps are 0 / 0 / 0), built by the domain's rebuildSchedule.
 */
export function studyplanInput(
  study: { id: number; uuid?: string },
  visitIds: number[],
  steps: StepSettings[] = [],
  overrides: Partial<StudyplanInput> = {},
): StudyplanInput {
  const schedule: ScheduleEntry[] = rebuildSchedule(visitIds, []).map((entry, index) => {
    const [days, before, after] = entry.toVisitId === null ? [0, 0, 0] : (steps[index] ?? [0, 0, 0]);
    return { ...entry, daysFromStart: days, allowedDaysBefore: before, allowedDaysAfter: after };
  });
  return {
    uuid: newUuid("studyplans"),
    studyUuid: study.uuid ?? null,
    studyId: study.uuid ? null : study.id,
    calculationMode: "default",
    schedule,
    ...overrides,
  };
}

/** Writes a studyplan of a study with its schedule (see studyplanInput). */
export async function createStudyplan(
  db: DbOrTx,
  studyId: number,
  visitIds: number[],
  steps: StepSettings[] = [],
  calculationMode: CalculationMode = "default",
) {
  const input = studyplanInput({ id: studyId }, visitIds, steps);
  const [row] = await db
    .insert(studyplans)
    .values({ uuid: input.uuid ?? newUuid("studyplans"), studyId, calculationMode })
    .returning();
  if (input.schedule.length > 0)
    await db
      .insert(studyplanScheduleEntries)
      .values(input.schedule.map(({ id: _, ...entry }) => ({ ...entry, studyplanId: row.id })));
  await rebuildVisitSchedules(db, { studyId });
  return row;
}

/** A patient as the patient form sends it: named, one phone contact, an address; recorderSiteId given. */
export function patientInput(
  recorderSiteId: number | null,
  overrides: Partial<PatientInput> = {},
): PatientInput {
  const n = next();
  return {
    uuid: newUuid("patients"),
    status: 1,
    statusDetails: null,
    recorderSiteId,
    patientDetail: {
      firstName: "Anna",
      lastName: `Kovács ${n}`,
      ssn: `0${String(100_000_000 + n).slice(1)}`,
      birthName: null,
      birthDate: "1980-05-17",
      birthCountryCode: "HU",
      birthCity: "Szeged",
      motherName: "Nagy Éva",
      sex: "FEMALE",
      notes: null,
    },
    address: {
      id: null,
      countryCode: "HU",
      city: "Budapest",
      streetAddress: "Fő utca 1.",
      postalCode: "1011",
      additionalAddressLine: null,
      addressType: "DEFAULT",
    },
    contacts: [{ id: null, contactType: "PHONE", value: "+36 30 123 4567", notes: null }],
    ...overrides,
  };
}

/** Writes a patient of a site with a barcode from the site's counter (the resource's own code path). */
export async function createPatient(db: Db, siteId: number, overrides: Partial<PatientInput> = {}) {
  const input = patientInput(siteId, overrides);
  return db.transaction((tx) => insertPatient(tx, input, siteId, input.uuid ?? newUuid("patients")));
}

/** An assignment as the study-patient editor sends it: active, started on a fixed day. */
export function studyPatientInput(
  refs: { patientId: number; studyId: number },
  overrides: Partial<StudyPatientInput> = {},
): StudyPatientInput {
  const n = next();
  return {
    uuid: newUuid("study-patients"),
    ...refs,
    screenNr: `S-${String(n).padStart(3, "0")}`,
    randomNr: null,
    active: true,
    startDate: "2025-04-01",
    closeDate: null,
    closeReason: null,
    notes: null,
    ...overrides,
  };
}

/** Writes an assignment of a patient to a study (closed ones need a close reason). */
export async function createStudyPatient(
  db: DbOrTx,
  refs: { patientId: number; studyId: number },
  overrides: Partial<StudyPatientInput> & { startedBy?: number | null; closedBy?: number | null } = {},
) {
  const input = studyPatientInput(refs, overrides);
  const [row] = await db
    .insert(studyPatients)
    .values({
      uuid: input.uuid ?? newUuid("study-patients"),
      patientId: refs.patientId,
      studyId: refs.studyId,
      screenNr: input.screenNr || null,
      randomNr: input.randomNr || null,
      active: input.active ?? true,
      startDate: input.startDate ?? null,
      startedBy: overrides.startedBy ?? null,
      closeDate: input.closeDate ?? null,
      closeReason: input.closeReason ?? null,
      closedBy: overrides.closedBy ?? null,
      notes: input.notes || null,
    })
    .returning();
  await rebuildVisitSchedules(db, { studyPatientIds: [row.id] });
  return row;
}

/** A patient visit as the visit form sends it: a completed visit with an OK result unless told otherwise. */
export function patientVisitInput(
  refs: { patientId: number; studyId: number; visitId: number },
  overrides: Partial<PatientVisitInput> = {},
): PatientVisitInput {
  return {
    uuid: newUuid("patient-visits"),
    ...refs,
    visitDate: "2025-04-14",
    visitTime: "09:30",
    visitStatus: "COMPLETED",
    visitResult: "OK",
    notes: "",
    ...overrides,
  };
}

/** Writes a patient visit (the caller makes sure the patient is assigned to the study). */
export async function createPatientVisit(
  db: DbOrTx,
  refs: { patientId: number; studyId: number; visitId: number },
  overrides: Partial<PatientVisitInput> = {},
) {
  const input = patientVisitInput(refs, overrides);
  const [row] = await db
    .insert(patientVisits)
    .values({
      uuid: input.uuid ?? newUuid("patient-visits"),
      patientId: refs.patientId,
      studyId: refs.studyId,
      visitId: refs.visitId,
      visitDate: input.visitDate || null,
      visitTime: input.visitTime || null,
      visitStatus: input.visitStatus ?? "BOOKED",
      visitResult: input.visitResult ?? null,
      notes: input.notes || null,
    })
    .returning();
  await rebuildVisitSchedules(db, refs);
  return row;
}
