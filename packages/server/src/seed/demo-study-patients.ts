import { addDays, type CloseReason } from "@trialdesk/domain";
import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { patients } from "../resources/patients/patients.table";
import { projects } from "../resources/projects/projects.table";
import { sites } from "../resources/sites/sites.table";
import { studies } from "../resources/studies/studies.table";
import { studyPatients } from "../resources/study-patients/study-patients.table";
import { createStudyPatient, studyPatientInput } from "./factories";

type StudyKey = "main" | "sub" | "lung";

/** The demo studies by protocol number and variant (see demoStudies in demo-data.ts). */
const studyKeys: Record<StudyKey, [protocolNr: string, variant: string]> = {
  main: ["TD-2025-001", "NORMAL"],
  sub: ["TD-2025-001", "SUB-STUDY"],
  lung: ["TD-2025-002", "NORMAL"],
};

/**
 * Who is assigned where: [site, patient numbers of that site in barcode order, study], and the few
 * assignments that were closed, with their reason. The demo study gets 30 patients (the visit
 * summary shows them), the other two a handful each; four patients stay unassigned. Each study is
 * run at its project's sites (TD-2025-001 at BUD and VIE, TD-2025-002 at WAW and BUD).
 */
const assignments: [site: string, patients: number[], study: StudyKey][] = [
  ["BUD", range(0, 24), "main"],
  ["VIE", range(0, 6), "main"],
  ["BUD", [0, 1, 2, 3, 5, 6], "sub"],
  ["VIE", [6], "sub"],
  ["WAW", range(0, 7), "lung"],
  ["BUD", [24], "lung"],
];
const closed: Record<string, CloseReason> = {
  "BUD/4/main": "CANCELLED",
  "BUD/13/main": "DIED",
  "BUD/20/main": "EOS",
  "BUD/2/sub": "EOS",
  "WAW/3/lung": "CANCELLED",
};
/** First days of enrolment per study; patients start a week apart from there. */
/**
 * Days before the seed's day that each study's first patient started; later patients follow every
 * five days, so on the day the demo starts its patients are at every stage of their plans.
 */
const firstStartDaysAgo: Record<StudyKey, number> = { main: 200, sub: 120, lung: 60 };
/** Randomisation numbers start here; roughly two of three patients have been randomised. */
const randomBase: Record<StudyKey, number> = { main: 1001, sub: 2001, lung: 3001 };

const minDate = (a: string, b: string) => (a < b ? a : b);

function range(from: number, to: number) {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/**
 * Demo assignments of the demo patients to the three demo studies (issue 7), with screening numbers
 * S-001… per study in start order, random numbers R-1001… for the randomised ones, and a few closed
 * with each close reason. Nothing is added when any assignment exists, so seeding twice adds nothing.
 */
export async function seedStudyPatients(db: Db, today = new Date().toISOString().slice(0, 10)) {
  const [existing] = await db.select({ n: count() }).from(studyPatients);
  if (Number(existing.n) > 0) return;
  const studyIds = {} as Record<StudyKey, number | undefined>;
  for (const [key, [protocolNr, variant]] of Object.entries(studyKeys) as [StudyKey, [string, string]][]) {
    const [study] = await db
      .select({ id: studies.id })
      .from(studies)
      .innerJoin(projects, eq(projects.id, studies.projectId))
      .where(and(eq(projects.protocolNr, protocolNr), eq(studies.variant, variant)));
    studyIds[key] = study?.id;
  }
  const patientsOf = async (code: string) =>
    db
      .select({ id: patients.id })
      .from(patients)
      .innerJoin(sites, eq(sites.id, patients.recorderSiteId))
      .where(eq(sites.code, code))
      .orderBy(asc(patients.barcode));
  const bySite = new Map<string, { id: number }[]>();
  const enrolled: Record<StudyKey, number> = { main: 0, sub: 0, lung: 0 };
  for (const [site, numbers, key] of assignments) {
    const studyId = studyIds[key];
    if (!studyId) continue;
    if (!bySite.has(site)) bySite.set(site, await patientsOf(site));
    for (const n of numbers) {
      const patient = bySite.get(site)?.[n];
      if (!patient) continue;
      const order = enrolled[key]++;
      const startDate = addDays(today, -firstStartDaysAgo[key] + order * 5);
      const reason = closed[`${site}/${n}/${key}`];
      const input = studyPatientInput(
        { patientId: patient.id, studyId },
        {
          screenNr: `S-${String(order + 1).padStart(3, "0")}`,
          // Screened patients are randomised after their run-in; the latest ones are not yet.
          randomNr: order % 3 === 2 ? null : `R-${randomBase[key] + order}`,
          startDate,
          active: !reason,
          closeReason: reason ?? null,
          closeDate: reason ? minDate(addDays(startDate, 35 + order * 3), addDays(today, -1)) : null,
          notes: reason === "DIED" ? "Serious adverse event reported to the sponsor" : null,
        },
      );
      // A closed one is written as it stands, like the demo's visits: saved through the editor before
      // its visits exist, its windows would all be missed, and their deviations withdrawn once the
      // visits come (issue 43). The seed's rebuild places its windows with its visits.
      if (reason) await db.insert(studyPatients).values(input as typeof studyPatients.$inferInsert);
      else await createStudyPatient(db, { patientId: patient.id, studyId }, input);
    }
  }
}
