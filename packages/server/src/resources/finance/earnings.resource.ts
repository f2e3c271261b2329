import { type EarningInput, type EarningState, earningStateValues } from "@trialdesk/domain";
import { and, eq, gte, isNull, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { SessionUser } from "../../auth/guards";
import { idParam } from "../params";
import { patientVisits } from "../patient-visits/patient-visits.table";
import { patients } from "../patients/patients.table";
import { projects } from "../projects/projects.table";
import { defineResource, throughKey } from "../resource";
import { inSites } from "../site-scope";
import { sites } from "../sites/sites.table";
import { visits } from "../visits/visits.table";
import { earnings, statements } from "./finance.table";
import { earningStateSql, withMoneyTexts } from "./finance-sql";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Must be a date as YYYY-MM-DD");
const onStatement = alias(statements, "on_statement");

/** The site's earnings (staff: their sites; administrators all); a voided one is no longer there. */
export function earningScope(user: SessionUser | null) {
  return and(isNull(earnings.voidedAt), user?.isAdmin ? undefined : inSites(earnings.siteId, user));
}

export const moneyFields = ["amount", "heldBack", "payable"];

/**
 * Earnings (issue 45): read-only, written by the visit saves (finance/earning-writes.ts); the list
 * filters by project, site, state and service dates, and exports like every list.
 */
export const earningsResource = defineResource<EarningInput>({
  name: "earnings",
  table: earnings,
  scope: earningScope,
  sort: {
    id: earnings.id,
    serviceDate: earnings.serviceDate,
    amount: earnings.amount,
    state: earningStateSql,
  },
  defaultSort: "serviceDate",
  defaultDirection: "desc",
  search: [throughKey(earnings.patientId, patients.id, patients.barcode)],
  filters: {
    projectId: {
      schema: idParam("Project must be a number"),
      where: (id: number) => eq(earnings.projectId, id),
    },
    siteId: { schema: idParam("Site must be a number"), where: (id: number) => eq(earnings.siteId, id) },
    state: {
      schema: z.enum(earningStateValues, { error: `State must be one of: ${earningStateValues.join(", ")}` }),
      where: (state: EarningState) => sql`${earningStateSql} = ${state}`,
    },
    from: { schema: day, where: (from: string) => gte(earnings.serviceDate, from) },
    to: { schema: day, where: (to: string) => lte(earnings.serviceDate, to) },
  },
  formats: {
    view: {
      fields: {
        id: earnings.id,
        uuid: earnings.uuid,
        projectId: earnings.projectId,
        projectName: projects.workingName,
        siteId: earnings.siteId,
        siteCode: sites.code,
        studyId: earnings.studyId,
        patientId: earnings.patientId,
        barcode: patients.barcode,
        visitId: earnings.visitId,
        visitName: visits.name,
        patientVisitId: earnings.patientVisitId,
        patientVisitUuid: patientVisits.uuid,
        serviceDate: earnings.serviceDate,
        currency: earnings.currency,
        amount: earnings.amount,
        heldBack: earnings.heldBack,
        payable: earnings.payable,
        state: earningStateSql,
        reversal: sql<boolean>`${earnings.reversesId} is not null`,
        statementId: earnings.statementId,
        statementUuid: onStatement.uuid,
      },
      joins: (query) =>
        query
          .innerJoin(projects, eq(projects.id, earnings.projectId))
          .innerJoin(sites, eq(sites.id, earnings.siteId))
          .innerJoin(patients, eq(patients.id, earnings.patientId))
          .innerJoin(visits, eq(visits.id, earnings.visitId))
          .leftJoin(patientVisits, eq(patientVisits.id, earnings.patientVisitId))
          .leftJoin(onStatement, eq(onStatement.id, earnings.statementId)),
      joinsKeepRows: true,
    },
  },
  expand: async (_db, rows) => withMoneyTexts(rows, moneyFields),
  toRow: () => {
    throw new Error("Earnings are written by the visit saves only");
  },
});
