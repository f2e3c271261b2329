import { randomBytes } from "node:crypto";
import type {
  CalculationMode,
  MonitorAssignmentInput,
  MonitorInput,
  PatientInput,
  PatientVisitInput,
  ProtocolDeviationInput,
  UserInput,
} from "@trialdesk/domain";
import {
  isDemoPassword,
  newUuid,
  type PartnerInput,
  type ProjectInput,
  rebuildSchedule,
  type ScheduleEntry,
  type SiteInput,
  type StudyInput,
  type StudyPatientInput,
  type StudyplanInput,
  studyWorkingName,
  type TherapyAreaInput,
  type TherapyCategoryInput,
  toIsoDate,
  type VisitInput,
} from "@trialdesk/domain";
import { eq, sql } from "drizzle-orm";
import { type ChangeContext, recordAudit } from "../audit/audit";
import type { SessionUser } from "../auth/guards";
import { hashPassword } from "../auth/passwords";
import type { Db } from "../db/client";
import { monitorAssignmentsResource } from "../resources/monitor-assignments/monitor-assignments.resource";
import type { monitorAssignments } from "../resources/monitor-assignments/monitor-assignments.table";
import { monitorsResource } from "../resources/monitors/monitors.resource";
import { monitors } from "../resources/monitors/monitors.table";
import { partnersResource } from "../resources/partners/partners.resource";
import type { partners } from "../resources/partners/partners.table";
import { patientVisitsResource } from "../resources/patient-visits/patient-visits.resource";
import type { patientVisits } from "../resources/patient-visits/patient-visits.table";
import { patientsResource } from "../resources/patients/patients.resource";
import type { patients } from "../resources/patients/patients.table";
import { projectsResource } from "../resources/projects/projects.resource";
import type { projects } from "../resources/projects/projects.table";
import { protocolDeviationsResource } from "../resources/protocol-deviations/protocol-deviations.resource";
import type { protocolDeviations } from "../resources/protocol-deviations/protocol-deviations.table";
import { queriesResource } from "../resources/queries/queries.resource";
import { queries } from "../resources/queries/queries.table";
import { type RecordTable, type ResourceDescription, resourceService } from "../resources/resource";
import { sitesResource } from "../resources/sites/sites.resource";
import { sites } from "../resources/sites/sites.table";
import { studiesResource } from "../resources/studies/studies.resource";
import type { studies } from "../resources/studies/studies.table";
import { studyPatientsResource } from "../resources/study-patients/study-patients.resource";
import type { studyPatients } from "../resources/study-patients/study-patients.table";
import { studyplansResource } from "../resources/studyplans/studyplans.resource";
import type { studyplans } from "../resources/studyplans/studyplans.table";
import { therapyAreasResource } from "../resources/therapy-areas/therapy-areas.resource";
import type { therapyAreas } from "../resources/therapy-areas/therapy-areas.table";
import { therapyCategoriesResource } from "../resources/therapy-categories/therapy-categories.resource";
import type { therapyCategories } from "../resources/therapy-categories/therapy-categories.table";
import { revokeUserSessions } from "../resources/users/sessions";
import { usersResource } from "../resources/users/users.resource";
import { users } from "../resources/users/users.table";
import { visitsResource } from "../resources/visits/visits.resource";
import type { visits } from "../resources/visits/visits.table";

/**
 * The one factory module (design §6): valid records for server tests, the demo seed and the
 * end-to-end tests. `…Input` builds a wire body as a client would send it; `create…` saves that body
 * through the resource's own write path (see `write`) and answers the table's row.
 */

/** The demo's fixed sign-ins and study (demo-constants.ts, which production code imports instead). */
export { demoAdmin, demoStaff, demoStudyUuid } from "./demo-constants";

/** The password of factory users and monitors: long enough and not on the common-passwords list. */
export const defaultPassword = "Quiet-Lynx-284";

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

/**
 * Factories write as the system: an administrator of no particular person, so every site is allowed
 * and "started by" / the audit's user stay empty, as for a record the API's own admin would not sign.
 */
const system = {
  id: null,
  uuid: "",
  email: "",
  profile: { firstName: "", lastName: "" },
  isAdmin: true,
  siteIds: [],
  kind: "user",
} as unknown as SessionUser;
const seedChange: ChangeContext = { userId: null, userName: "system", requestId: "seed", reason: null };

const services = new WeakMap<Db, Map<string, ReturnType<typeof resourceService>>>();

/**
 * Saves `body` as the API's POST would (the resource's validation, derived fields, children, visit
 * windows and audit event, in one transaction), so test and demo data obey every save rule; answers
 * the table's row, as tests read columns the wire formats leave out.
 */
async function write<T extends RecordTable>(
  db: Db,
  // biome-ignore lint/suspicious/noExplicitAny: any resource's description; the body is checked by its own schema
  def: ResourceDescription<any>,
  body: object,
): Promise<T["$inferSelect"]> {
  const byName = services.get(db) ?? new Map<string, ReturnType<typeof resourceService>>();
  services.set(db, byName);
  const service = byName.get(def.name) ?? resourceService(db, def);
  byName.set(def.name, service);
  const { id } = (await service.create(body, system, seedChange)) as { id: number };
  const [row] = await db.select().from(def.table).where(eq(def.table.id, id));
  return row as T["$inferSelect"];
}

export async function createTherapyCategory(db: Db, overrides: Partial<TherapyCategoryInput> = {}) {
  return write<typeof therapyCategories>(db, therapyCategoriesResource, therapyCategoryInput(overrides));
}

export async function createTherapyArea(
  db: Db,
  therapyCategoryId: number,
  overrides: Partial<TherapyAreaInput> = {},
) {
  return write<typeof therapyAreas>(db, therapyAreasResource, therapyAreaInput(therapyCategoryId, overrides));
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

/** A bare site (named "Site <code>", no address), as most tests need; overrides add the rest. */
export async function createSite(db: Db, overrides: Partial<SiteInput> = {}) {
  const input = siteInput({ address: null, city: null, countryCode: null, ...overrides });
  return write<typeof sites>(db, sitesResource, { ...input, name: overrides.name ?? input.shortName });
}

export async function createPartner(db: Db, overrides: Partial<PartnerInput> = {}) {
  return write<typeof partners>(db, partnersResource, partnerInput(overrides));
}

export type UserOptions = {
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  isAdmin?: boolean;
  isActive?: boolean;
  siteIds?: number[];
} & DemoAccount;

/**
 * `demo`: one of the demo seed's accounts, whose password is one of the published demo passwords
 * (README). The account rules refuse those to everyone (issue 46), so such an account is saved
 * through the resource like any other with a one-off password that passes every rule, and the demo
 * password's hash then takes its place (`demoPasswordHash`). Only the demo seed says `demo`.
 */
export type DemoAccount = { demo?: boolean };

/** What a demo account is first saved with: random, long, on no list. */
const oneOffPassword = () => `Demo-${randomBytes(12).toString("base64url")}`;

/** The hash of a demo password, stored past the one rule that refuses it; any other password is refused. */
async function demoPasswordHash(password: string): Promise<string> {
  if (!isDemoPassword(password)) throw new Error("Only a demo password is stored past the account rules");
  return hashPassword(password);
}

/** A user who can sign in with `password` (default `defaultPassword`), through the Users form's rules. */
export async function createUser(db: Db, options: UserOptions = {}) {
  const password = options.password ?? defaultPassword;
  const input = userInput({
    password: options.demo ? oneOffPassword() : password,
    isAdmin: options.isAdmin ?? false,
    isActive: options.isActive ?? true,
    siteIds: options.siteIds ?? [],
    ...(options.email ? { email: options.email } : {}),
  });
  input.profile = {
    firstName: options.firstName ?? input.profile.firstName,
    lastName: options.lastName ?? input.profile.lastName,
  };
  const row = await write<typeof users>(db, usersResource, input);
  if (!options.demo) return { ...row, password };
  const [demo] = await db
    .update(users)
    .set({ passwordHash: await demoPasswordHash(password) })
    .where(eq(users.id, row.id))
    .returning();
  return { ...demo, password };
}

/** A user as the Users form sends it (a new one: with a password and its confirmation). */
export function userInput(overrides: Partial<UserInput> = {}): UserInput {
  const n = next();
  return {
    uuid: newUuid("users"),
    email: `user${n}.${Date.now()}@example.com`,
    password: defaultPassword,
    password2: overrides.password ?? defaultPassword,
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
    password: defaultPassword,
    password2: overrides.password ?? defaultPassword,
    isActive: true,
    ...overrides,
  };
}

/** A monitor row; monitors sign in (issue 44) to what their assignments give. `demo`: see DemoAccount. */
export async function createMonitor(
  db: Db,
  overrides: Partial<MonitorInput> = {},
  options: DemoAccount = {},
) {
  const password = overrides.password ?? defaultPassword;
  const input = options.demo ? { ...overrides, password: oneOffPassword() } : overrides;
  const row = await write<typeof monitors>(db, monitorsResource, monitorInput(input));
  if (!options.demo) return row;
  const [demo] = await db
    .update(monitors)
    .set({ passwordHash: await demoPasswordHash(password) })
    .where(eq(monitors.id, row.id))
    .returning();
  return demo;
}

/** A monitor's assignment to a study, at every site of its project unless sites are given. */
export function monitorAssignmentInput(
  refs: { monitorId: number; studyId: number },
  overrides: Partial<MonitorAssignmentInput> = {},
): MonitorAssignmentInput {
  const today = toIsoDate(new Date());
  return {
    uuid: newUuid("monitor-assignments"),
    ...refs,
    siteIds: [],
    accessFrom: today,
    accessTo: today,
    notes: null,
    ...overrides,
  };
}

/**
 * A query a monitor raises on a patient visit (issue 44): written as that monitor, whose current
 * assignment must cover the visit.
 */
export async function createQuery(
  db: Db,
  monitor: { id: number; uuid: string; email: string; firstName: string; lastName: string },
  patientVisitId: number,
  text = "The visit time differs from the source document: please check.",
) {
  const asMonitor = {
    id: monitor.id,
    uuid: monitor.uuid,
    email: monitor.email,
    profile: { firstName: monitor.firstName, lastName: monitor.lastName },
    isAdmin: false,
    siteIds: [],
    kind: "monitor",
  } as SessionUser;
  const service = resourceService(db, queriesResource);
  const change = { ...seedChange, userId: null, monitorId: monitor.id };
  const { id } = (await service.create(
    { uuid: newUuid("queries"), patientVisitId, text },
    asMonitor,
    change,
  )) as { id: number };
  const [row] = await db.select().from(queries).where(eq(queries.id, id));
  return row as typeof queries.$inferSelect;
}

export async function createMonitorAssignment(
  db: Db,
  refs: { monitorId: number; studyId: number } & Partial<MonitorAssignmentInput>,
) {
  const { monitorId, studyId, ...overrides } = refs;
  return write<typeof monitorAssignments>(
    db,
    monitorAssignmentsResource,
    monitorAssignmentInput({ monitorId, studyId }, overrides),
  );
}

/** Who resets an existing account with `npm run create-admin`: the system, as the operator's act. */
const createAdminChange: ChangeContext = {
  userId: null,
  userName: "system",
  requestId: "create-admin",
  reason: "npm run create-admin",
};

/**
 * Creates an administrator with every site, or resets the password of an existing account, makes it
 * an active administrator and ends its sign-ins, with its audit event like every change (issue 46):
 * by the system, what it re-activated or made administrator, and the password "changed".
 */
export async function upsertAdmin(
  db: Db,
  options: { email: string; password: string; firstName?: string; lastName?: string } & DemoAccount,
) {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, options.email.toLowerCase()));
  const allSites = await db.select({ id: sites.id }).from(sites);
  if (existing) {
    const passwordHash = await (options.demo ? demoPasswordHash : hashPassword)(options.password);
    await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ uuid: users.uuid, isActive: users.isActive, isAdmin: users.isAdmin })
        .from(users)
        .where(eq(users.id, existing.id))
        .for("update");
      await tx
        .update(users)
        .set({
          passwordHash,
          lastPasswordChangeDate: sql`now()`,
          isAdmin: true,
          isActive: true,
          version: sql`${users.version} + 1`,
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, existing.id));
      // A reset password ends that account's sessions, as a reset through the Users screen does.
      await revokeUserSessions(tx, existing.id);
      await recordAudit(tx, createAdminChange, {
        resource: "users",
        uuid: before.uuid,
        action: "update",
        changes: [
          ...(before.isActive ? [] : [{ field: "isActive", old: false, new: true }]),
          ...(before.isAdmin ? [] : [{ field: "isAdmin", old: false, new: true }]),
          { field: "password", old: null, new: "changed" },
        ],
      });
    });
    return { id: existing.id, created: false };
  }
  const user = await createUser(db, {
    email: options.email,
    password: options.password,
    firstName: options.firstName ?? "Admin",
    lastName: options.lastName ?? "User",
    isAdmin: true,
    siteIds: allSites.map((s) => s.id),
    demo: options.demo,
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

/** Writes a project and its sites; the server computes the internal code from the referenced codes. */
export async function createProject(db: Db, refs: ProjectRefs, overrides: Partial<ProjectInput> = {}) {
  return write<typeof projects>(db, projectsResource, projectInput(refs, overrides));
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
  db: Db,
  project: { id: number; protocolNr: string },
  overrides: Partial<StudyInput> = {},
) {
  return write<typeof studies>(db, studiesResource, studyInput(project, overrides));
}

/** A visit definition as the Visits form sends it (a mandatory control visit unless told otherwise). */
export function visitInput(studyId: number, overrides: Partial<VisitInput> = {}): VisitInput {
  const n = next();
  // A name no test or demo visit is given ("Week 4" is), so a default never clashes in its study (issue 46).
  return {
    uuid: newUuid("visits"),
    studyId,
    name: `Visit V${n}`,
    visitTypeId: 60,
    mandatory: 1,
    ...overrides,
  };
}

/** Writes a visit definition of a study. */
export async function createVisit(db: Db, studyId: number, overrides: Partial<VisitInput> = {}) {
  return write<typeof visits>(db, visitsResource, visitInput(studyId, overrides));
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

/** Writes a studyplan of a study with its schedule (see studyplanInput); the study's windows follow. */
export async function createStudyplan(
  db: Db,
  studyId: number,
  visitIds: number[],
  steps: StepSettings[] = [],
  calculationMode: CalculationMode = "default",
) {
  const input = studyplanInput({ id: studyId }, visitIds, steps, { calculationMode });
  return write<typeof studyplans>(db, studyplansResource, input);
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

/** Writes a patient of `siteId` (whatever the overrides say) with a barcode from the site's counter. */
export async function createPatient(db: Db, siteId: number, overrides: Partial<PatientInput> = {}) {
  const input = { ...patientInput(siteId, overrides), recorderSiteId: siteId };
  return write<typeof patients>(db, patientsResource, input);
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
  db: Db,
  refs: { patientId: number; studyId: number },
  overrides: Partial<StudyPatientInput> = {},
) {
  return write<typeof studyPatients>(db, studyPatientsResource, studyPatientInput(refs, overrides));
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

/** Writes a patient visit; the patient must be assigned to the study, as the API requires. */
export async function createPatientVisit(
  db: Db,
  refs: { patientId: number; studyId: number; visitId: number },
  overrides: Partial<PatientVisitInput> = {},
) {
  return write<typeof patientVisits>(db, patientVisitsResource, patientVisitInput(refs, overrides));
}

/** A protocol deviation staff enter by hand: an open minor procedure deviation unless told otherwise. */
export function protocolDeviationInput(
  refs: { patientId: number; studyId: number; visitId?: number | null },
  overrides: Partial<ProtocolDeviationInput> = {},
): ProtocolDeviationInput {
  return {
    uuid: newUuid("protocol-deviations"),
    visitId: null,
    ...refs,
    kind: "PROCEDURE",
    description: "ECG not done at the visit",
    severity: "MINOR",
    status: "OPEN",
    reportedOn: null,
    correctiveAction: null,
    closedOn: null,
    ...overrides,
  };
}

export async function createProtocolDeviation(
  db: Db,
  refs: { patientId: number; studyId: number; visitId?: number | null },
  overrides: Partial<ProtocolDeviationInput> = {},
) {
  return write<typeof protocolDeviations>(
    db,
    protocolDeviationsResource,
    protocolDeviationInput(refs, overrides),
  );
}
