import {
  automaticDeviationKinds,
  deviationKinds,
  deviationMessages,
  deviationSeverities,
  deviationStatuses,
  type FieldErrors,
  optionLabel,
  type ProtocolDeviationInput,
  toIsoDate,
} from "@trialdesk/domain";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import type { SessionUser } from "../../auth/guards";
import type { Tx } from "../../db/client";
import { conflict, validationError } from "../../http/errors";
import { column, monitorSeesSite } from "../monitor-assignments/monitor-scope";
import { idParam, oneOfFilter } from "../params";
import { patientVisits } from "../patient-visits/patient-visits.table";
import { patientScope } from "../patients/patients.resource";
import { patients } from "../patients/patients.table";
import { byName, defineResource, foldedText, type Row, throughKey } from "../resource";
import { inSites } from "../site-scope";
import { studies } from "../studies/studies.table";
import { studyPatients } from "../study-patients/study-patients.table";
import { visits } from "../visits/visits.table";
import { protocolDeviations } from "./protocol-deviations.table";

/**
 * Deviations are site-scoped through their patient, exactly like patient visits (issue 43): staff see
 * and change those of their sites' patients; administrators all. A deviation keeps its patient's site
 * (a patient's site is fixed at create, decision 68), so the scope and the site filter read it from the
 * base table and the list pages from the (site, detected on) index.
 */
export function deviationScope(user: SessionUser | null): SQL | undefined {
  if (user?.isAdmin) return undefined;
  return inSites(protocolDeviations.siteId, user);
}

const isAutomaticKind = (kind: unknown) => (automaticDeviationKinds as readonly unknown[]).includes(kind);

/**
 * What a manual deviation refers to must hold together, read as the user may see it: the patient
 * (another site's reads as missing), an assignment of the patient to the study (the active one, else
 * the latest), a visit of that study, and a record of that patient's visit in the study.
 */
async function references(tx: Tx, input: ProtocolDeviationInput, user: SessionUser | null) {
  const [found] = await tx
    .select({
      siteId: patients.recorderSiteId,
      studyPatientId: sql<number | null>`(select sp.id from ${studyPatients} sp
        where sp.patient_id = ${patients.id} and sp.study_id = ${input.studyId as number}
        order by sp.active desc, sp.id desc limit 1)`,
      visitStudyId: sql<
        number | null
      >`(select v.study_id from ${visits} v where v.id = ${input.visitId ?? null}::int)`,
      patientVisitOk: sql<boolean>`(${input.patientVisitId ?? null}::int is null or exists(
        select 1 from ${patientVisits} pv where pv.id = ${input.patientVisitId ?? null}::int
          and pv.patient_id = ${patients.id} and pv.study_id = ${input.studyId as number}
          and (${input.visitId ?? null}::int is null or pv.visit_id = ${input.visitId ?? null}::int)))`,
    })
    .from(patients)
    .where(and(eq(patients.id, input.patientId as number), patientScope(user)));
  if (!found) throw validationError({ patientId: deviationMessages.patientRequired });
  const errors: FieldErrors = {};
  if (found.studyPatientId === null) errors.studyId = deviationMessages.notAssigned;
  if (input.visitId != null && Number(found.visitStudyId) !== input.studyId)
    errors.visitId = deviationMessages.visitOfOtherStudy;
  if (!found.patientVisitOk) errors.patientVisitId = deviationMessages.patientVisitOfOther;
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return { siteId: found.siteId, studyPatientId: Number(found.studyPatientId) };
}

/** What staff may change on any deviation; what Trialdesk derived stays as it is on automatic ones. */
function editable(input: ProtocolDeviationInput, existing: Row | null) {
  const status = input.status ?? "OPEN";
  // Only Trialdesk withdraws, when the cause of an automatic deviation goes away.
  if (status === "WITHDRAWN" && existing?.status !== "WITHDRAWN")
    throw validationError({ status: deviationMessages.withdrawnByHand });
  return {
    description: input.description?.trim() ?? "",
    severity: input.severity ?? "MINOR",
    status,
    reportedOn: input.reportedOn ?? null,
    correctiveAction: input.correctiveAction?.trim() ? input.correctiveAction : null,
    closedOn: input.closedOn ?? null,
  };
}

const patientName = sql<string>`${patients.lastName} || ' ' || ${patients.firstName}`;

const joins = (query: PgSelect) =>
  query
    .innerJoin(patients, eq(patients.id, protocolDeviations.patientId))
    .innerJoin(studies, eq(studies.id, protocolDeviations.studyId))
    .leftJoin(visits, eq(visits.id, protocolDeviations.visitId));

const listFields = {
  id: protocolDeviations.id,
  uuid: protocolDeviations.uuid,
  patientId: protocolDeviations.patientId,
  barcode: patients.barcode,
  patientName,
  studyId: protocolDeviations.studyId,
  studyName: studies.workingName,
  visitId: protocolDeviations.visitId,
  visitName: visits.name,
  patientVisitId: protocolDeviations.patientVisitId,
  kind: protocolDeviations.kind,
  source: protocolDeviations.source,
  daysOutside: protocolDeviations.daysOutside,
  detectedOn: protocolDeviations.detectedOn,
  severity: protocolDeviations.severity,
  status: protocolDeviations.status,
  noLongerApplies: protocolDeviations.noLongerApplies,
};

const id = idParam();

export const protocolDeviationsResource = defineResource<ProtocolDeviationInput>({
  name: "protocol-deviations",
  table: protocolDeviations,
  scope: deviationScope,
  monitors: {
    scope: (m) =>
      monitorSeesSite(m, column("protocol_deviations", "study_id"), column("protocol_deviations", "site_id")),
    hide: ["patientName"],
    search: [throughKey(protocolDeviations.patientId, patients.id, patients.barcode)],
  },
  sort: {
    id: protocolDeviations.id,
    detectedOn: protocolDeviations.detectedOn,
    patientName: [byName(patients.lastName), byName(patients.firstName)],
    barcode: patients.barcode,
    studyName: studies.workingName,
    visitName: visits.name,
    kind: protocolDeviations.kind,
    daysOutside: protocolDeviations.daysOutside,
    severity: protocolDeviations.severity,
    status: protocolDeviations.status,
  },
  defaultSort: "detectedOn",
  defaultDirection: "desc",
  // The patient by the patient search's text (names without accents, barcode, SSN, phones).
  search: [throughKey(protocolDeviations.patientId, patients.id, foldedText(patients.searchText))],
  searchByWord: true,
  filters: {
    siteId: { schema: id, where: (siteId: number) => eq(protocolDeviations.siteId, siteId) },
    patientId: { schema: id, where: (patientId: number) => eq(protocolDeviations.patientId, patientId) },
    studyId: { schema: id, where: (studyId: number) => eq(protocolDeviations.studyId, studyId) },
    visitId: { schema: id, where: (visitId: number) => eq(protocolDeviations.visitId, visitId) },
    patientVisitId: {
      schema: id,
      where: (patientVisitId: number) => eq(protocolDeviations.patientVisitId, patientVisitId),
    },
    status: oneOfFilter(protocolDeviations.status, deviationStatuses, "Status"),
    kind: oneOfFilter(protocolDeviations.kind, deviationKinds, "Kind"),
  },
  exportText: {
    patientName: (row) => `${row.patientName} (${row.barcode})`,
    kind: (row) => optionLabel(deviationKinds, row.kind as never),
    severity: (row) => optionLabel(deviationSeverities, row.severity as never),
    status: (row) =>
      `${optionLabel(deviationStatuses, row.status as never)}${row.noLongerApplies ? " (no longer applies)" : ""}`,
  },
  listFormat: "list",
  formats: {
    view: {
      fields: {
        ...listFields,
        version: protocolDeviations.version,
        siteId: protocolDeviations.siteId,
        studyPatientId: protocolDeviations.studyPatientId,
        description: protocolDeviations.description,
        reportedOn: protocolDeviations.reportedOn,
        correctiveAction: protocolDeviations.correctiveAction,
        closedOn: protocolDeviations.closedOn,
      },
      joins,
      joinsKeepRows: true,
    },
    list: { fields: listFields, joins, joinsKeepRows: true },
  },
  toRow: async (input, { tx, user, existing }) => {
    if (existing?.source === "AUTOMATIC") return editable(input, existing);
    if (isAutomaticKind(input.kind)) throw validationError({ kind: deviationMessages.automaticKind });
    const { siteId, studyPatientId } = await references(tx, input, user);
    return {
      ...editable(input, existing),
      siteId,
      patientId: input.patientId,
      studyId: input.studyId,
      studyPatientId,
      visitId: input.visitId ?? null,
      patientVisitId: input.patientVisitId ?? null,
      kind: input.kind,
      source: "MANUAL",
      detectedOn: (existing?.detectedOn as string | undefined) ?? input.detectedOn ?? toIsoDate(new Date()),
      daysOutside: null,
    };
  },
  // The worklist's "Deviations open" follows an automatic deviation's status as staff change it.
  afterChange: async (_tx, before, after) => {
    if (after?.source !== "AUTOMATIC" || before?.status === after.status) return [];
    return [
      {
        key: "visit_schedule deviation open",
        build: (value) => sql`update visit_schedule set deviation_open = ${value("open")}::boolean
          where study_patient_id = ${value("studyPatientId")}::int and visit_id = ${value("visitId")}::int`,
        values: {
          open: after.status === "OPEN",
          studyPatientId: after.studyPatientId,
          visitId: after.visitId,
        },
      },
    ];
  },
  // Nothing that happened is deleted: a deviation is closed, or withdrawn by Trialdesk.
  beforeDelete: async () => {
    throw conflict(deviationMessages.neverDeleted);
  },
});
