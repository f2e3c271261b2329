import {
  createPartner,
  createProject,
  createSite,
  createTherapyArea,
  createTherapyCategory,
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
