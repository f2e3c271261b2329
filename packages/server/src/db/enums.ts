/**
 * The enum values the database enforces with CHECK constraints (spec §4, §9), taken from the domain
 * so the database guards exactly the values the rules know.
 */
export {
  addressTypes,
  closeReasonValues as closeReasons,
  contactTypeValues as contactTypes,
  currencies,
  phaseValues as phases,
  projectStatusIds,
  randomisationVisitType as randomisationVisitTypeId,
  sexValues as sexes,
  studyVariants,
  vatOptions as vatRates,
  visitResultValues as visitResults,
  visitStatusValues as visitStatuses,
  visitTypeIds,
} from "@trialdesk/domain";

export const auditActions = ["create", "update", "delete"] as const;
