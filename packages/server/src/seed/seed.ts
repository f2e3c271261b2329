import { newUuid } from "@trialdesk/domain";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { partners } from "../resources/partners/partners.table";
import { projects } from "../resources/projects/projects.table";
import { sites } from "../resources/sites/sites.table";
import { studies } from "../resources/studies/studies.table";
import { studyplans } from "../resources/studyplans/studyplans.table";
import { therapyAreas } from "../resources/therapy-areas/therapy-areas.table";
import { therapyCategories } from "../resources/therapy-categories/therapy-categories.table";
import { users } from "../resources/users/users.table";
import { visits } from "../resources/visits/visits.table";
import { rebuildVisitSchedules } from "../resources/worklist/visit-schedule";
import { createAdminIfMissing } from "./bootstrap-admin";
import { seedPatientVisits } from "./demo-patient-visits";
import { seedPatients } from "./demo-patients";
import { seedStudyPatients } from "./demo-study-patients";
import {
  createMonitor,
  createProject,
  createStudy,
  createStudyplan,
  createUser,
  createVisit,
  demoAdmin,
  demoStaff,
  demoStudyUuid,
  type StepSettings,
} from "./factories";

/** Demo data (DESIGN §4); later issues extend it. Safe to run twice: existing codes are kept. */
export const demoSites = [
  {
    code: "BUD",
    name: "Budapest Clinical Research Centre",
    shortName: "Budapest CRC",
    barcodePrefix: "BUD-",
    city: "Budapest",
    countryCode: "HU",
    address: "Üllői út 26.",
  },
  {
    code: "VIE",
    name: "Vienna Trial Clinic",
    shortName: "Vienna TC",
    barcodePrefix: "VIE-",
    city: "Vienna",
    countryCode: "AT",
    address: "Währinger Gürtel 18–20",
  },
  {
    code: "WAW",
    name: "Warsaw Medical Research Site",
    shortName: "Warsaw MRS",
    barcodePrefix: "WAW-",
    city: "Warsaw",
    countryCode: "PL",
    address: "ul. Banacha 1a",
  },
];

export const demoPartners = [
  { code: "ACR", name: "Acme Clinical Research", cro: true, sponsor: false },
  { code: "NRT", name: "Nordic Trials", cro: true, sponsor: false },
  { code: "MDP", name: "Medicor Pharma", cro: false, sponsor: true },
  { code: "HLX", name: "Helix Biotech", cro: false, sponsor: true },
  { code: "UNR", name: "Unity Research", cro: true, sponsor: true },
];

export const demoTherapy: Record<string, { name: string; areas: [string, string][] }> = {
  ONC: {
    name: "Oncology",
    areas: [
      ["BRC", "Breast cancer"],
      ["LUC", "Lung cancer"],
      ["CRC", "Colorectal cancer"],
      ["PRC", "Prostate cancer"],
      ["LEU", "Leukaemia"],
      ["LYM", "Lymphoma"],
    ],
  },
  CAR: {
    name: "Cardiology",
    areas: [
      ["HFL", "Heart failure"],
      ["HYP", "Hypertension"],
      ["AFB", "Atrial fibrillation"],
      ["CAD", "Coronary artery disease"],
    ],
  },
  NEU: {
    name: "Neurology",
    areas: [
      ["ALZ", "Alzheimer's disease"],
      ["PKD", "Parkinson's disease"],
      ["MSC", "Multiple sclerosis"],
      ["EPI", "Epilepsy"],
      ["MIG", "Migraine"],
    ],
  },
  IMM: {
    name: "Immunology",
    areas: [
      ["RHA", "Rheumatoid arthritis"],
      ["PSO", "Psoriasis"],
      ["LUP", "Lupus"],
    ],
  },
  END: {
    name: "Endocrinology",
    areas: [
      ["T1D", "Type 1 diabetes"],
      ["T2D", "Type 2 diabetes"],
      ["OBE", "Obesity"],
      ["THY", "Thyroid disorders"],
    ],
  },
  INF: {
    name: "Infectious diseases",
    areas: [
      ["HIV", "HIV infection"],
      ["HBV", "Hepatitis B"],
      ["FLU", "Influenza"],
      ["COV", "COVID-19"],
    ],
  },
  RES: {
    name: "Respiratory",
    areas: [
      ["AST", "Asthma"],
      ["COP", "COPD"],
      ["CYF", "Cystic fibrosis"],
    ],
  },
  GAS: {
    name: "Gastroenterology",
    areas: [
      ["ULC", "Ulcerative colitis"],
      ["CRD", "Crohn's disease"],
      ["IBS", "Irritable bowel syndrome"],
    ],
  },
};

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  const [sitesRow] = await db.select({ n: count() }).from(sites);
  return Number(row.n) === 0 && Number(sitesRow.n) === 0;
}

/**
 * Writes the demo data. The demo administrator (admin@example.com / admin1234) is created only for
 * the embedded database: a real PostgreSQL gets its first administrator from ADMIN_EMAIL /
 * ADMIN_PASSWORD or `npm run create-admin`, never a fixed password.
 */
export async function seed(db: Db, options: { demoAdmin: boolean }) {
  await db
    .insert(sites)
    .values(demoSites.map((site) => ({ ...site, uuid: newUuid("sites") })))
    .onConflictDoNothing();
  await db
    .insert(partners)
    .values(demoPartners.map((partner) => ({ ...partner, uuid: newUuid("partners") })))
    .onConflictDoNothing();
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
  // The demo rows were written directly: place their visit windows once.
  await rebuildVisitSchedules(db, { all: true });
  if (options.demoAdmin) {
    // Created once; SEED=always never resets an existing account's password.
    await createAdminIfMissing(db, demoAdmin);
    await seedDemoStaff(db);
  }
  for (const monitor of demoMonitors) await createMonitor(db, monitor);
}

/** Two study monitors on record (they do not sign in to this app). */
export const demoMonitors = [
  { email: "maria.monitor@example.com", firstName: "Maria", lastName: "Monti", password: "monitor1234" },
  { email: "peter.checker@example.com", firstName: "Peter", lastName: "Checker", password: "monitor1234" },
];

/** The demo staff member works for the first demo site only (embedded demo only, like the admin). */
async function seedDemoStaff(db: Db) {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, demoStaff.email));
  if (existing) return;
  const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.code, demoSites[0].code));
  await createUser(db, { ...demoStaff, isAdmin: false, siteIds: site ? [site.id] : [] });
}

/** Two projects with every tab filled; the studies of the demo data belong to them. */
export const demoProjects = [
  {
    workingName: "HEART-FAIL III",
    protocolNr: "TD-2025-001",
    cro: "ACR",
    sponsor: "MDP",
    therapyArea: "HFL",
    sites: ["BUD", "VIE"],
    projectStatusId: 30,
    details: {
      longName: "Heart failure outcomes with cardiozan",
      officialTitle:
        "A randomised, double-blind, placebo-controlled study of cardiozan in adults with chronic heart failure",
      officialUrl: "https://clinicaltrials.example.org/study/TD-2025-001",
      phase: 3,
      ipName: "Cardiozan 20 mg",
    },
    finance: {
      settlementDays: 30,
      paymentDays: 45,
      patientFee: 1850,
      currency: "EUR" as const,
      vat: 27,
      paidPercentage: 80,
      monitoredPercentage: 100,
    },
    settings: { rescreen: true, cohortHandling: false, hospitalisation: true },
  },
  {
    workingName: "LUNG-TARGET II",
    protocolNr: "TD-2025-002",
    cro: "NRT",
    sponsor: "HLX",
    therapyArea: "LUC",
    sites: ["WAW", "BUD"],
    projectStatusId: 20,
    details: {
      longName: "Targeted therapy in advanced lung cancer",
      officialTitle:
        "An open-label, multicentre phase II study of helixumab in previously treated non-small cell lung cancer",
      officialUrl: "https://clinicaltrials.example.org/study/TD-2025-002",
      phase: 2,
      ipName: "Helixumab",
    },
    finance: {
      settlementDays: 60,
      paymentDays: 30,
      patientFee: 420000,
      currency: "HUF" as const,
      vat: 0,
      paidPercentage: 70,
      monitoredPercentage: 50,
    },
    settings: { rescreen: false, cohortHandling: true, hospitalisation: false },
  },
];

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

type DemoVisit = [name: string, visitTypeId: number, mandatory: 0 | 1];

/**
 * Three studies of the demo projects, each with its visit definitions and one randomisation visit.
 * The first is the demo study the home page's Visit summary tile points at.
 */
export const demoStudies: {
  uuid?: string;
  protocolNr: string;
  variant: "NORMAL" | "SUB-STUDY";
  fpfv: string;
  lpfv: string;
  lplv: string;
  projectStatusId: number;
  visits: DemoVisit[];
}[] = [
  {
    uuid: demoStudyUuid,
    protocolNr: "TD-2025-001",
    variant: "NORMAL",
    fpfv: "2025-03-03",
    lpfv: "2026-06-30",
    lplv: "2027-03-31",
    projectStatusId: 30,
    visits: [
      ["Screening", 20, 1],
      ["Run-in", 30, 1],
      ["Randomisation", 50, 1],
      ["Week 2", 60, 1],
      ["Week 4", 60, 1],
      ["Week 8", 60, 1],
      ["Week 12", 60, 1],
      ["Week 16 phone call", 110, 0],
      ["Week 24 / End of treatment", 70, 1],
      ["Safety follow up", 120, 1],
      ["End of study", 80, 1],
      ["Unscheduled", 100, 0],
    ],
  },
  {
    protocolNr: "TD-2025-001",
    variant: "SUB-STUDY",
    fpfv: "2025-06-02",
    lpfv: "2026-06-30",
    lplv: "2027-03-31",
    projectStatusId: 20,
    visits: [
      ["Screening", 20, 1],
      ["Randomisation", 50, 1],
      ["Echocardiography", 65, 1],
      ["Week 4", 60, 1],
      ["Week 12", 60, 1],
      ["Phone follow up", 130, 0],
      ["End of treatment", 70, 1],
      ["End of study", 80, 1],
    ],
  },
  {
    protocolNr: "TD-2025-002",
    variant: "NORMAL",
    fpfv: "2025-09-01",
    lpfv: "2027-02-26",
    lplv: "2028-02-29",
    projectStatusId: 20,
    visits: [
      ["Prescreening", 10, 0],
      ["Screening", 20, 1],
      ["Randomisation", 50, 1],
      ["Cycle 1 Day 1", 60, 1],
      ["Cycle 2 Day 1", 60, 1],
      ["Cycle 3 Day 1", 60, 1],
      ["Tumour assessment", 65, 1],
      ["End of treatment", 70, 1],
      ["Follow up", 120, 1],
      ["End of study", 80, 1],
    ],
  },
];

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

/**
 * Demo studyplans (issue 8): the demo study's plan is complete (every mandatory visit and the
 * optional phone call, with days and windows a protocol would give), the sub-study's is incomplete
 * (four of its six mandatory visits), and the third study has none — one of each list status.
 * Each step is [days to the next visit, window before, window after].
 */
export const demoStudyplans: { protocolNr: string; variant: string; steps: [string, ...StepSettings][] }[] = [
  {
    protocolNr: "TD-2025-001",
    variant: "NORMAL",
    steps: [
      ["Screening", 14, 2, 2],
      ["Run-in", 14, 2, 2],
      ["Randomisation", 14, 2, 2],
      ["Week 2", 14, 3, 3],
      ["Week 4", 28, 3, 3],
      ["Week 8", 28, 5, 5],
      ["Week 12", 28, 5, 5],
      ["Week 16 phone call", 56, 7, 7],
      ["Week 24 / End of treatment", 28, 3, 7],
      ["Safety follow up", 14, 3, 3],
      ["End of study", 0, 0, 0],
    ],
  },
  {
    protocolNr: "TD-2025-001",
    variant: "SUB-STUDY",
    steps: [
      ["Screening", 14, 2, 2],
      ["Randomisation", 28, 3, 3],
      ["Week 4", 56, 5, 5],
      ["Week 12", 0, 0, 0],
    ],
  },
];

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
