import type { Db } from "../src/db/client";
import {
  createPartner,
  createProject,
  createSite,
  createStudy,
  createStudyplan,
  createTherapyArea,
  createTherapyCategory,
  createVisit,
} from "../src/seed/factories";
import type { TestApp } from "./helpers";

/** A project with its CRO, sponsor, therapy area and site, as studies need one. */
export async function setUpProject(t: TestApp, protocolNr: string) {
  const db = t.database.db;
  const category = await createTherapyCategory(db);
  const area = await createTherapyArea(db, category.id);
  const cro = await createPartner(db, { cro: true });
  const sponsor = await createPartner(db, { sponsor: true });
  const site = await createSite(db);
  return createProject(
    db,
    { croId: cro.id, sponsorId: sponsor.id, therapyAreaId: area.id, siteIds: [site.id] },
    { protocolNr, workingName: `Project ${protocolNr}` },
  );
}

/**
 * A project at the given sites with the finance terms of issue 45's worked example (1,850.00 EUR, 80 %
 * paid, VAT 27 %, 45 payment days) and the verification share asked, its study, and a plan of `visits`
 * (mandatory unless told), a week apart with windows of ±3 days.
 */
export async function financeStudy(
  db: Db,
  siteIds: number[],
  monitoredPercentage: number,
  visits: { name: string; mandatory?: 0 | 1 }[],
) {
  const category = await createTherapyCategory(db);
  const area = await createTherapyArea(db, category.id);
  const partner = await createPartner(db, { cro: true, sponsor: true });
  const project = await createProject(
    db,
    { croId: partner.id, sponsorId: partner.id, therapyAreaId: area.id, siteIds },
    {
      finance: {
        settlementDays: 30,
        paymentDays: 45,
        patientFee: 1850,
        currency: "EUR",
        vat: 27,
        paidPercentage: 80,
        monitoredPercentage,
      },
    },
  );
  const study = await createStudy(db, project as { id: number; protocolNr: string });
  const visitIds: number[] = [];
  for (const visit of visits) visitIds.push((await createVisit(db, study.id, visit)).id);
  const steps = visitIds.slice(1).map((): [number, number, number] => [7, 3, 3]);
  const plan = await createStudyplan(db, study.id, visitIds, steps);
  return { project, study, visitIds, plan: plan as { uuid: string } };
}
