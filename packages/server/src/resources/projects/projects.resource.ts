import {
  type FieldErrors,
  optionLabel,
  type Phase,
  type ProjectInput,
  phases,
  projectInternalCodeOf,
} from "@trialdesk/domain";
import { eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { holds, type Tx } from "../../db/client";
import { validationError } from "../../http/errors";
import { partners } from "../partners/partners.table";
import { defineResource, type Row } from "../resource";
import { siteLinks } from "../site-links";
import { sites } from "../sites/sites.table";
import { resampleProject } from "../study-patients/sdv-sample";
import { therapyAreas } from "../therapy-areas/therapy-areas.table";
import { projectSites, projects } from "./projects.table";

const cros = alias(partners, "cro");
const sponsors = alias(partners, "sponsor");

/**
 * Checks the referenced CRO, sponsor, therapy area and sites, and gives the internal code computed
 * from them (spec §4 Automatic values): the client's internal code is never trusted.
 */
async function referencedInternalCode(input: ProjectInput, tx: Tx) {
  const { croId, sponsorId, therapyAreaId } = input.details;
  const partnerIds = [croId, sponsorId].filter((id): id is number => typeof id === "number");
  const partnerRows = partnerIds.length
    ? await tx
        .select({ id: partners.id, code: partners.code, cro: partners.cro, sponsor: partners.sponsor })
        .from(partners)
        .where(inArray(partners.id, partnerIds))
    : [];
  const areaRows =
    typeof therapyAreaId === "number"
      ? await tx
          .select({ id: therapyAreas.id, code: therapyAreas.code })
          .from(therapyAreas)
          .where(eq(therapyAreas.id, therapyAreaId))
      : [];
  const errors: FieldErrors = {};
  const cro = partnerRows.find((p) => p.id === croId);
  const sponsor = partnerRows.find((p) => p.id === sponsorId);
  if (!cro) errors["details.croId"] = "CRO does not exist";
  else if (!cro.cro) errors["details.croId"] = "The chosen partner is not a CRO";
  if (!sponsor) errors["details.sponsorId"] = "Sponsor does not exist";
  else if (!sponsor.sponsor) errors["details.sponsorId"] = "The chosen partner is not a sponsor";
  if (areaRows.length === 0) errors["details.therapyAreaId"] = "Therapy area does not exist";
  Object.assign(errors, await checkSites(tx, input.siteIds ?? []));
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return projectInternalCodeOf(input, partnerRows, areaRows);
}

async function checkSites(tx: Tx, siteIds: number[]): Promise<FieldErrors> {
  const wanted = [...new Set(siteIds)];
  if (wanted.length === 0) return {};
  const found = await tx.select({ id: sites.id }).from(sites).where(inArray(sites.id, wanted));
  return found.length === wanted.length ? {} : { siteIds: "A chosen site does not exist" };
}

export const projectSiteLinks = siteLinks(projectSites, "projectId");

export const protocolNrUsedMessage = "Protocol number is already used by another project";

/**
 * Refuses a protocol number another project has, compared trimmed and in any case (issue 46). The
 * unique index projects_protocol_nr_unique holds it in the database; the check names it on the field
 * before the index would, which for a project of the same CRO, sponsor and therapy area would first
 * refuse the internal code made from the same number. Saves of one number take turns on an advisory
 * lock, so two at the same moment get this message too.
 */
async function checkProtocolNr(tx: Tx, protocolNr: string, id: number | null) {
  // Folded as the index folds it, by PostgreSQL.
  const folded = sql`lower(btrim(${protocolNr}::text))`;
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended('projects protocol_nr ' || ${folded}, 0))`,
  );
  const used = await holds(
    tx,
    sql`exists(select 1 from ${projects} where lower(btrim(${projects.protocolNr})) = ${folded}
      and ${projects.id} is distinct from ${id}::int)`,
  );
  if (used) throw validationError({ protocolNr: protocolNrUsedMessage });
}

/** Projects (spec §2.5, §3): the record with its details, finance and settings parts, and its sites. */
export const projectsResource = defineResource<ProjectInput>({
  name: "projects",
  table: projects,
  sort: {
    id: projects.id,
    workingName: projects.workingName,
    protocolNr: projects.protocolNr,
    internalCode: projects.internalCode,
    phase: projects.phase,
  },
  search: [projects.workingName, projects.protocolNr, projects.internalCode],
  // Study setup is written by administrators (the registry, decision 226).
  exportText: { phase: (row) => optionLabel(phases, (row.details as { phase: Phase | null }).phase) },
  formats: {
    view: {
      fields: {
        id: projects.id,
        uuid: projects.uuid,
        version: projects.version,
        workingName: projects.workingName,
        protocolNr: projects.protocolNr,
        internalCode: projects.internalCode,
        projectStatusId: projects.projectStatusId,
        details: {
          longName: projects.longName,
          officialTitle: projects.officialTitle,
          officialUrl: projects.officialUrl,
          phase: projects.phase,
          ipName: projects.ipName,
          therapyAreaId: projects.therapyAreaId,
          croId: projects.croId,
          sponsorId: projects.sponsorId,
        },
        finance: {
          settlementDays: projects.settlementDays,
          paymentDays: projects.paymentDays,
          patientFee: projects.patientFee,
          currency: projects.currency,
          vat: projects.vat,
          paidPercentage: projects.paidPercentage,
          monitoredPercentage: projects.monitoredPercentage,
        },
        settings: {
          rescreen: projects.rescreen,
          cohortHandling: projects.cohortHandling,
          hospitalisation: projects.hospitalisation,
        },
        therapyAreaName: therapyAreas.name,
        croName: cros.name,
        sponsorName: sponsors.name,
      },
      joins: (query) =>
        query
          .innerJoin(therapyAreas, eq(therapyAreas.id, projects.therapyAreaId))
          .innerJoin(cros, eq(cros.id, projects.croId))
          .innerJoin(sponsors, eq(sponsors.id, projects.sponsorId)),
    },
    // The project selects of other editors (spec §3 Option view, §7: page 1 size 250).
    "option-view": {
      fields: {
        id: projects.id,
        uuid: projects.uuid,
        workingName: projects.workingName,
        protocolNr: projects.protocolNr,
        status: projects.projectStatusId,
      },
    },
  },
  toRow: async (input, { tx, existing }) => {
    await checkProtocolNr(tx, input.protocolNr, (existing?.id as number | undefined) ?? null);
    return {
      workingName: input.workingName,
      protocolNr: input.protocolNr,
      internalCode: await referencedInternalCode(input, tx),
      projectStatusId: input.projectStatusId,
      ...input.details,
      ...input.finance,
      patientFee: input.finance.patientFee?.toString() ?? null,
      rescreen: input.settings.rescreen ?? false,
      cohortHandling: input.settings.cohortHandling ?? false,
      hospitalisation: input.settings.hospitalisation ?? false,
    };
  },
  writeChildren: async (id, input, { tx }) => {
    await projectSiteLinks.write(tx, id, input.siteIds ?? []);
  },
  // A new verification percentage resizes every sample of the project (issue 44).
  afterChange: async (tx, before, after) => {
    const percentage = (record: Row | null) =>
      (record?.finance as { monitoredPercentage?: number | null } | undefined)?.monitoredPercentage ?? null;
    if (before && after && percentage(before) !== percentage(after))
      await resampleProject(tx, after.id as number);
    return undefined;
  },
  expand: async (db, records) => {
    // Only the full record has parts; the option view stays as selected.
    if (!records.some((r) => "finance" in r)) return records;
    return (await projectSiteLinks.attach(db, records)).map((record) => {
      const finance = record.finance as Record<string, unknown>;
      return {
        ...record,
        // numeric comes back as text; the wire carries a number.
        finance: { ...finance, patientFee: finance.patientFee === null ? null : Number(finance.patientFee) },
      };
    });
  },
  unique: {
    projects_protocol_nr_unique: { field: "protocolNr", message: protocolNrUsedMessage },
    projects_internal_code_unique: {
      field: "internalCode",
      message:
        "Internal code must be unique: another project has the same CRO, sponsor, therapy area and protocol number ending",
    },
  },
});
