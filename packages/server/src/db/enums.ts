/**
 * The enum values the database enforces with CHECK constraints (spec §4, §9). The domain package
 * holds the labels and the rules; these lists are the database's own guard and must match it.
 */
export const visitTypeIds = [10, 20, 25, 30, 40, 50, 60, 65, 70, 80, 90, 100, 110, 120, 130] as const;
export const randomisationVisitTypeId = 50;
export const projectStatusIds = [10, 20, 30, 40, 50, 100, 110] as const;
export const phases = [1, 2, 3, 4] as const;
export const currencies = ["HUF", "EUR", "USD", "GBP", "CHF"] as const;
export const vatRates = [0, 27] as const;
export const studyVariants = ["NORMAL", "SECONDARY", "SUB-STUDY", "VARIANT-1", "VARIANT-2"] as const;
export const contactTypes = ["PHONE", "EMAIL"] as const;
export const sexes = ["MALE", "FEMALE", "UNK"] as const;
export const addressTypes = ["DEFAULT"] as const;
export const visitStatuses = ["BOOKED", "CANCELLED", "NO_SHOW", "ARRIVED", "COMPLETED"] as const;
export const visitResults = ["PENDING", "OK", "FAILED"] as const;
export const closeReasons = ["CANCELLED", "DIED", "EOS"] as const;
export const auditActions = ["create", "update", "delete"] as const;
