import type { z } from "zod";
import type { ResourceName } from "./registry";
import {
  earningSchema,
  emptyPayment,
  emptyStatement,
  normalizePayment,
  normalizeStatement,
  paymentSchema,
  statementSchema,
  validatePayment,
  validateStatement,
} from "./resources/finance";
import {
  emptyMonitorAssignment,
  monitorAssignmentSchema,
  normalizeMonitorAssignment,
  validateMonitorAssignment,
} from "./resources/monitor-assignments";
import { emptyMonitor, monitorSchema, normalizeMonitor, validateMonitor } from "./resources/monitors";
import {
  emptyPartner,
  normalizePartner,
  partnerSchema,
  validatePartner,
  validatePartnerForSave,
} from "./resources/partners";
import {
  emptyPatientVisit,
  normalizePatientVisit,
  patientVisitSchema,
  validatePatientVisit,
} from "./resources/patient-visits";
import { emptyPatient, normalizePatient, patientSchema, validatePatient } from "./resources/patients";
import { emptyProject, normalizeProject, projectSchema, validateProject } from "./resources/projects";
import {
  emptyProtocolDeviation,
  normalizeProtocolDeviation,
  protocolDeviationSchema,
  validateProtocolDeviation,
} from "./resources/protocol-deviations";
import { emptyQuery, querySchema, validateQuery } from "./resources/queries";
import {
  emptySite,
  normalizeSite,
  prepareSiteForSave,
  siteSchema,
  validateSiteForSave,
} from "./resources/sites";
import { emptyStudy, normalizeStudy, studySchema, validateStudy } from "./resources/studies";
import {
  emptyStudyPatient,
  normalizeStudyPatient,
  studyPatientSchema,
  validateStudyPatient,
} from "./resources/study-patients";
import { emptyStudyplan, studyplanSchema, validateStudyplan } from "./resources/studyplans";
import {
  emptyTherapyArea,
  normalizeTherapyArea,
  therapyAreaSchema,
  validateTherapyArea,
} from "./resources/therapy-areas";
import {
  emptyTherapyCategory,
  normalizeTherapyCategory,
  therapyCategorySchema,
  validateTherapyCategory,
} from "./resources/therapy-categories";
import { emptyUser, normalizeUser, userSchema, validateUser } from "./resources/users";
import { emptyVisit, normalizeVisit, validateVisit, visitSchema } from "./resources/visits";
import type { FieldErrors } from "./validation";

export * from "./resources/finance";
export * from "./resources/monitor-assignments";
// Each registered resource's module: its types and rules are the package's exports (index.ts
// re-exports this file), and its rules are listed below, so a new resource is added here alone.
export * from "./resources/monitors";
export * from "./resources/partners";
export * from "./resources/patient-visits";
export * from "./resources/patients";
export * from "./resources/projects";
export * from "./resources/protocol-deviations";
export * from "./resources/queries";
export * from "./resources/sites";
export * from "./resources/studies";
export * from "./resources/study-patients";
export * from "./resources/studyplans";
export * from "./resources/therapy-areas";
export * from "./resources/therapy-categories";
export * from "./resources/users";
export * from "./resources/visits";

/**
 * The rules of each registered resource (issue 16), kept apart from the registry so the web's first
 * screen, which reads the registry for its menu, does not load every schema.
 *
 * A record's rules: its strict wire schema, the form's blank record, the keystroke-safe normaliser
 * and the validator with the spec's messages, shared by the form and the server. `save` is what the
 * server does instead where it checks more (a minimum the form leaves to it) or stores a prepared form.
 */
// biome-ignore lint/suspicious/noExplicitAny: each resource's own input type; the entries keep theirs.
type Rule<R> = (data: any) => R;
export type ResourceRules = {
  schema: z.ZodType;
  empty: () => object;
  normalize?: Rule<object>;
  validate: Rule<FieldErrors>;
  save?: { normalize?: Rule<object>; validate?: Rule<FieldErrors> };
};

export const resourceRules = {
  patients: {
    schema: patientSchema,
    empty: emptyPatient,
    normalize: normalizePatient,
    validate: validatePatient,
  },
  "study-patients": {
    schema: studyPatientSchema,
    empty: emptyStudyPatient,
    normalize: normalizeStudyPatient,
    validate: validateStudyPatient,
  },
  "patient-visits": {
    schema: patientVisitSchema,
    empty: emptyPatientVisit,
    normalize: normalizePatientVisit,
    validate: validatePatientVisit,
  },
  "protocol-deviations": {
    schema: protocolDeviationSchema,
    empty: emptyProtocolDeviation,
    normalize: normalizeProtocolDeviation,
    validate: validateProtocolDeviation,
  },
  queries: { schema: querySchema, empty: emptyQuery, validate: validateQuery },
  earnings: { schema: earningSchema, empty: () => ({}), validate: () => ({}) },
  statements: {
    schema: statementSchema,
    empty: emptyStatement,
    normalize: normalizeStatement,
    validate: validateStatement,
  },
  payments: {
    schema: paymentSchema,
    empty: emptyPayment,
    normalize: normalizePayment,
    validate: validatePayment,
  },
  "monitor-assignments": {
    schema: monitorAssignmentSchema,
    empty: emptyMonitorAssignment,
    normalize: normalizeMonitorAssignment,
    validate: validateMonitorAssignment,
  },
  projects: {
    schema: projectSchema,
    empty: emptyProject,
    normalize: normalizeProject,
    validate: validateProject,
  },
  studies: { schema: studySchema, empty: emptyStudy, normalize: normalizeStudy, validate: validateStudy },
  visits: { schema: visitSchema, empty: emptyVisit, normalize: normalizeVisit, validate: validateVisit },
  studyplans: { schema: studyplanSchema, empty: emptyStudyplan, validate: validateStudyplan },
  "therapy-categories": {
    schema: therapyCategorySchema,
    empty: emptyTherapyCategory,
    normalize: normalizeTherapyCategory,
    validate: validateTherapyCategory,
  },
  "therapy-areas": {
    schema: therapyAreaSchema,
    empty: emptyTherapyArea,
    normalize: normalizeTherapyArea,
    validate: validateTherapyArea,
  },
  partners: {
    schema: partnerSchema,
    empty: emptyPartner,
    normalize: normalizePartner,
    validate: validatePartner,
    // The 2-character code minimum of the hint is the server's (spec §5).
    save: { validate: validatePartnerForSave },
  },
  sites: {
    schema: siteSchema,
    empty: emptySite,
    normalize: normalizeSite,
    // The server's minimums are the form's too, so they show before anything is sent (issue 15).
    validate: validateSiteForSave,
    // Stored with its barcode prefix's separator.
    save: { normalize: prepareSiteForSave },
  },
  users: { schema: userSchema, empty: emptyUser, normalize: normalizeUser, validate: validateUser },
  monitors: {
    schema: monitorSchema,
    empty: emptyMonitor,
    normalize: normalizeMonitor,
    validate: validateMonitor,
  },
} as const satisfies Record<ResourceName, ResourceRules>;
