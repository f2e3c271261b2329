import { newUuid } from "@trialdesk/domain";
import { count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { partners } from "../resources/partners/partners.table";
import { sites } from "../resources/sites/sites.table";
import { therapyAreas } from "../resources/therapy-areas/therapy-areas.table";
import { therapyCategories } from "../resources/therapy-categories/therapy-categories.table";
import { users } from "../resources/users/users.table";
import { createMonitor, createUser, demoAdmin, demoStaff, upsertAdmin } from "./factories";

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
  if (options.demoAdmin) {
    await upsertAdmin(db, demoAdmin);
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
