import { newUuid, type ResourceName, toIsoDate } from "@trialdesk/domain";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import pg from "pg";
import { resources } from "../app";
import type { Db } from "../db/client";
import { monitors } from "../resources/monitors/monitors.table";
import { partners } from "../resources/partners/partners.table";
import { patientVisits } from "../resources/patient-visits/patient-visits.table";
import { projects } from "../resources/projects/projects.table";
import { sites } from "../resources/sites/sites.table";
import { studies } from "../resources/studies/studies.table";
import { resampleEverything } from "../resources/study-patients/sdv-sample";
import { studyplans } from "../resources/studyplans/studyplans.table";
import { therapyAreas } from "../resources/therapy-areas/therapy-areas.table";
import { therapyCategories } from "../resources/therapy-categories/therapy-categories.table";
import { users } from "../resources/users/users.table";
import { rebuildVisitSchedules } from "../resources/visit-schedule/visit-schedule";
import { visits } from "../resources/visits/visits.table";
import { createAdminIfMissing } from "./bootstrap-admin";
import {
  demoMonitors,
  demoProjects,
  demoRecords,
  demoSites,
  demoStudies,
  demoStudyplans,
  demoTherapy,
} from "./demo-data";
import { seedFinance } from "./demo-finance";
import { seedPatientVisits } from "./demo-patient-visits";
import { seedPatients } from "./demo-patients";
import { seedStudyPatients } from "./demo-study-patients";
import {
  createMonitor,
  createMonitorAssignment,
  createProject,
  createQuery,
  createStudy,
  createStudyplan,
  createUser,
  createVisit,
  demoAdmin,
  demoStaff,
  demoStudyUuid,
} from "./factories";

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  const [sitesRow] = await db.select({ n: count() }).from(sites);
  return Number(row.n) === 0 && Number(sitesRow.n) === 0;
}

/** The advisory lock that seeds of one PostgreSQL database take in turn (any fixed number, not the migrations'). */
const seedLock = 7_301_326_015;

/**
 * Runs `work` while this process holds the seed's lock of a PostgreSQL database: servers started
 * with SEED=always at the same moment (or `npm run seed` beside one) seed in turn, and each finds what
 * the one before wrote (issue 46; at once, one failed on a unique violation). The lock is a session's,
 * on a pooled connection kept for the purpose; it is asked for again every 100 ms rather than waited
 * for in one statement, which the statement timeout would cut on a long seed. Lost with its connection
 * if the process dies. PGlite has one process (its data folder's lock): nothing to take.
 */
async function oneSeedAtATime(db: Db, work: () => Promise<void>): Promise<void> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) return work();
  const connection = await client.connect();
  let held = false;
  try {
    const take = () =>
      connection.query<{ taken: boolean }>("select pg_try_advisory_lock($1) as taken", [seedLock]);
    while (!(await take()).rows[0].taken) await new Promise((resolve) => setTimeout(resolve, 100));
    held = true;
    await work();
  } finally {
    // Unlocked, the connection goes back to the pool; if unlocking fails, it is dropped, and the lock with it.
    const lost = held
      ? await connection.query("select pg_advisory_unlock($1)", [seedLock]).then(
          () => undefined,
          (error: Error) => error,
        )
      : undefined;
    connection.release(lost);
  }
}

/**
 * Writes the demo data, one seed at a time on a PostgreSQL database (oneSeedAtATime). The demo
 * administrator (admin@example.com / admin1234) is created only for the embedded database: a real
 * PostgreSQL gets its first administrator from ADMIN_EMAIL / ADMIN_PASSWORD or `npm run create-admin`,
 * never a fixed password. The demo accounts keep their published passwords, which the account rules
 * refuse to any other account (factories' `demo`).
 */
export async function seed(db: Db, options: { demoAdmin: boolean }) {
  await oneSeedAtATime(db, () => seedOnce(db, options));
}

async function seedOnce(db: Db, options: { demoAdmin: boolean }) {
  for (const [name, records] of Object.entries(demoRecords) as [ResourceName, object[]][]) {
    const table = resources.find((resource) => resource.name === name)?.table;
    if (!table) throw new Error(`No resource ${name} to seed`);
    await db
      .insert(table)
      .values(records.map((record) => ({ ...record, uuid: newUuid(name) })))
      .onConflictDoNothing();
  }
  await db
    .insert(therapyCategories)
    .values(
      Object.entries(demoTherapy).map(([code, { name }]) => ({
        code,
        name,
        uuid: newUuid("therapy-categories"),
      })),
    )
    .onConflictDoNothing();
  const categories = await db
    .select({ id: therapyCategories.id, code: therapyCategories.code })
    .from(therapyCategories)
    .where(inArray(therapyCategories.code, Object.keys(demoTherapy)));
  const idOf = new Map(categories.map((c) => [c.code, c.id]));
  await db
    .insert(therapyAreas)
    .values(
      Object.entries(demoTherapy).flatMap(([categoryCode, { areas }]) =>
        areas.map(([code, name]) => ({
          code,
          name,
          therapyCategoryId: idOf.get(categoryCode) as number,
          uuid: newUuid("therapy-areas"),
        })),
      ),
    )
    .onConflictDoNothing();
  await seedProjects(db);
  await seedStudies(db);
  await seedStudyplans(db);
  await seedPatients(db);
  await seedStudyPatients(db);
  await seedPatientVisits(db);
  // The demo rows were written directly: place their visit windows and verification samples once.
  await rebuildVisitSchedules(db, { all: true });
  await db.transaction((tx) => resampleEverything(tx));
  if (options.demoAdmin) {
    // Created once; SEED=always never resets an existing account's password.
    await createAdminIfMissing(db, { ...demoAdmin, demo: true });
    await seedDemoStaff(db);
  }
  await seedMonitors(db);
  await seedFinance(db, demoStudyUuid);
}

/**
 * The demo monitors, once: a second seed leaves existing ones as they are. The first is assigned to
 * the demo study at every site, from a month ago for a year (issue 44).
 */
async function seedMonitors(db: Db) {
  const existing = new Set((await db.select({ email: monitors.email }).from(monitors)).map((m) => m.email));
  for (const monitor of demoMonitors) {
    if (existing.has(monitor.email)) continue;
    const created = await createMonitor(db, monitor, { demo: true });
    const [study] = await db.select({ id: studies.id }).from(studies).where(eq(studies.uuid, demoStudyUuid));
    if (monitor === demoMonitors[0] && study) {
      const day = (offset: number) => toIsoDate(new Date(Date.now() + offset * 86_400_000));
      await createMonitorAssignment(db, {
        monitorId: created.id,
        studyId: study.id,
        accessFrom: day(-30),
        accessTo: day(365),
        notes: "Demo monitoring of the demo study",
      });
      // One query the demo site can answer, on the demo study's first completed visit.
      const [visit] = await db
        .select({ id: patientVisits.id })
        .from(patientVisits)
        .where(and(eq(patientVisits.studyId, study.id), eq(patientVisits.visitStatus, "COMPLETED")))
        .orderBy(patientVisits.id)
        .limit(1);
      if (visit) await createQuery(db, created, visit.id);
    }
  }
}

/** The demo staff member works for the first demo site only (embedded demo only, like the admin). */
async function seedDemoStaff(db: Db) {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, demoStaff.email));
  if (existing) return;
  const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.code, demoSites[0].code));
  await createUser(db, { ...demoStaff, demo: true, isAdmin: false, siteIds: site ? [site.id] : [] });
}

async function seedProjects(db: Db) {
  const idsByCode = async (table: typeof sites | typeof partners | typeof therapyAreas) =>
    new Map((await db.select({ id: table.id, code: table.code }).from(table)).map((r) => [r.code, r.id]));
  const [siteIds, partnerIds, areaIds] = await Promise.all([
    idsByCode(sites),
    idsByCode(partners),
    idsByCode(therapyAreas),
  ]);
  const existing = new Set(
    (await db.select({ protocolNr: projects.protocolNr }).from(projects)).map((p) => p.protocolNr),
  );
  for (const project of demoProjects) {
    if (existing.has(project.protocolNr)) continue;
    const refs = {
      croId: partnerIds.get(project.cro) as number,
      sponsorId: partnerIds.get(project.sponsor) as number,
      therapyAreaId: areaIds.get(project.therapyArea) as number,
      siteIds: project.sites.map((code) => siteIds.get(code) as number),
    };
    await createProject(db, refs, {
      workingName: project.workingName,
      protocolNr: project.protocolNr,
      projectStatusId: project.projectStatusId,
      details: {
        ...project.details,
        croId: refs.croId,
        sponsorId: refs.sponsorId,
        therapyAreaId: refs.therapyAreaId,
      },
      finance: project.finance,
      settings: project.settings,
    });
  }
}

async function seedStudies(db: Db) {
  const projectRows = await db
    .select({ id: projects.id, protocolNr: projects.protocolNr })
    .from(projects)
    .where(inArray(projects.protocolNr, [...new Set(demoStudies.map((s) => s.protocolNr))]));
  const existing = new Set(
    (await db.select({ projectId: studies.projectId, variant: studies.variant }).from(studies)).map(
      (s) => `${s.projectId}/${s.variant}`,
    ),
  );
  for (const { visits, protocolNr, ...study } of demoStudies) {
    const project = projectRows.find((p) => p.protocolNr === protocolNr);
    if (!project || existing.has(`${project.id}/${study.variant}`)) continue;
    const row = await createStudy(db, project, study);
    for (const [name, visitTypeId, mandatory] of visits) {
      await createVisit(db, row.id, { name, visitTypeId, mandatory });
    }
  }
}

async function seedStudyplans(db: Db) {
  for (const plan of demoStudyplans) {
    const [study] = await db
      .select({ id: studies.id, planId: studyplans.id })
      .from(studies)
      .innerJoin(projects, eq(projects.id, studies.projectId))
      .leftJoin(studyplans, eq(studyplans.studyId, studies.id))
      .where(and(eq(projects.protocolNr, plan.protocolNr), eq(studies.variant, plan.variant)));
    if (!study || study.planId !== null) continue;
    const studyVisits = await db
      .select({ id: visits.id, name: visits.name })
      .from(visits)
      .where(eq(visits.studyId, study.id));
    const ids = plan.steps.map(([name]) => studyVisits.find((v) => v.name === name)?.id);
    if (ids.some((id) => id === undefined)) continue;
    // The demo plans' days are intervals between visits: "From the previous visit".
    await createStudyplan(
      db,
      study.id,
      ids as number[],
      plan.steps.map(([, ...settings]) => settings),
      "previous",
    );
  }
}
