import { z } from "zod";
import type { Currency } from "../constants";
import { flag, idRef, recordMeta, text } from "../schema";
import { check, required, validator } from "../validation";
import { dateField, emptiedToNull, viewTexts } from "./fields";

/**
 * What the site is owed (issue 45): an earning per completed plan visit, statements of the billable
 * earnings, payments allocated to statements. Amounts travel as decimal strings in the currency's
 * digits ("2255.52", HUF "1001"); the arithmetic is rules/money.ts.
 */

export const earningStates = [
  { value: "AWAITING_VERIFICATION", label: "Awaiting verification" },
  { value: "BILLABLE", label: "Billable" },
  { value: "ON_STATEMENT", label: "On statement" },
  { value: "PAID", label: "Paid" },
] as const;
export type EarningState = (typeof earningStates)[number]["value"];
export const earningStateValues = earningStates.map((s) => s.value) as EarningState[];

export type Earning = {
  id: number;
  uuid: string;
  projectId: number;
  projectName: string;
  siteId: number;
  siteCode: string;
  studyId: number;
  patientId: number;
  barcode: string;
  visitId: number;
  visitName: string;
  patientVisitId: number | null;
  patientVisitUuid: string | null;
  serviceDate: string;
  currency: Currency;
  amount: string;
  heldBack: string;
  payable: string;
  state: EarningState;
  /** A reversing line of an earning already on a statement (its visit is no longer completed). */
  reversal: boolean;
  statementId: number | null;
  statementUuid: string | null;
};

/** Earnings are Trialdesk's: written with the visit saves, never by hand (the registry's access "none"). */
export const earningSchema = z.strictObject({ ...recordMeta });
export type EarningInput = z.infer<typeof earningSchema>;

export const statementStatuses = [
  { value: "DRAFT", label: "Draft" },
  { value: "SENT", label: "Sent" },
  { value: "PARTIALLY_PAID", label: "Partially paid" },
  { value: "PAID", label: "Paid" },
  { value: "VOID", label: "Void" },
] as const;
export type StatementStatus = (typeof statementStatuses)[number]["value"];
export const statementStatusValues = statementStatuses.map((s) => s.value) as StatementStatus[];
/** The statuses a person sets; PARTIALLY_PAID and PAID follow from the payments. */
export const settableStatementStatuses = ["DRAFT", "SENT", "VOID"] as const;

export type StatementLine = {
  id: number;
  earningUuid: string | null;
  description: string;
  serviceDate: string | null;
  amount: string;
  /** The line releases its earning's held-back amount (a close-out statement). */
  heldBack: boolean;
};

export type Statement = {
  id: number;
  uuid: string;
  version: number;
  projectId: number;
  projectName: string;
  siteId: number;
  siteCode: string;
  periodTo: string;
  statementDate: string;
  dueDate: string;
  currency: Currency;
  vatPercent: number;
  paymentDays: number;
  paidPercentage: number;
  net: string;
  vat: string;
  gross: string;
  paid: string;
  open: string;
  status: StatementStatus;
  externalInvoiceNumber: string | null;
  /** A close-out statement: it releases the held-back amounts too. */
  closeOut: boolean;
  /** The open rest a site gave up on, with its reason: the statement then counts as paid. */
  writtenOff: string;
  writeOffReason: string | null;
  lines?: StatementLine[];
};

/** An amount as typed: a positive decimal of up to two decimals (the currency may allow fewer). */
export const amountText = () =>
  z
    .string({ error: "Must be an amount" })
    .trim()
    .regex(/^-?\d{1,10}(\.\d{1,2})?$/, "Must be an amount such as 1250.00");

export const statementSchema = z.strictObject({
  ...recordMeta,
  projectId: idRef().nullish(),
  siteId: idRef().nullish(),
  periodTo: dateField(),
  statementDate: dateField(),
  status: z.enum(statementStatusValues, { error: "Unknown status" }).nullish(),
  externalInvoiceNumber: text(50).nullish(),
  /** Set when the statement is prepared: it also releases the held-back amounts (never changed later). */
  closeOut: flag().nullish(),
  // What the server computes; accepted so a loaded statement can be sent back whole, never taken.
  dueDate: z.string().nullish(),
  currency: z.string().nullish(),
  vatPercent: z.number().nullish(),
  paymentDays: z.number().nullish(),
  paidPercentage: z.number().nullish(),
  net: z.string().nullish(),
  vat: z.string().nullish(),
  gross: z.string().nullish(),
  paid: z.string().nullish(),
  open: z.string().nullish(),
  writtenOff: z.string().nullish(),
  writeOffReason: z.string().nullish(),
  lines: z.array(z.unknown()).nullish(),
  ...viewTexts("projectName", "siteCode"),
});
export type StatementInput = z.infer<typeof statementSchema>;
type StatementForm = Partial<StatementInput>;

export const financeMessages = {
  projectRequired: "Project is required",
  siteRequired: "Site is required",
  periodToRequired: "Period to is required",
  statementDateRequired: "Statement date is required",
  statementBeforePeriod: "Statement date cannot be before Period to",
  nothingBillable: "Nothing is billable at this site up to this date",
  siteOfOtherProject: "The site is not a site of the project",
  notSettable: "Partially paid and Paid follow from the payments",
  statementSent: "A sent statement never changes; void it and prepare a new one",
  statementWithPayments: "A statement with payments cannot be voided",
  notDraftLines: "Lines are added to a draft statement only",
  receivedDateRequired: "Received date is required",
  amountRequired: "Amount is required",
  amountPositive: "Amount must be more than zero",
  tooManyDigits: "The currency has fewer decimals",
  beyondOpen: "More than the statement's open amount",
  beyondPayment: "The allocations add up to more than the payment",
  statementOfOther: "Not an open statement of this project and site",
  descriptionRequired: "Description is required",
  neverDeleted: "Statements and payments are never deleted: void a statement instead",
  nothingToCloseOut: "Nothing is billable or held back at this site up to this date",
  assignmentsOpen: (open: number) =>
    `A close-out statement needs every assignment of the project at the site closed (${open} still open)`,
  writeOffReasonRequired: "A reason for the write-off is required",
  statementWrittenOff: "A statement with a write-off cannot be voided",
  writeOffNotOpen: "Only a sent statement with an open amount can be written off",
} as const;

/** POST /api/statements/{uuid}/write-off: the statement's whole open amount, with the reason. */
export const writeOffSchema = z.strictObject({ reason: text(500) });

export const validateStatement = validator<StatementForm>(
  required("projectId", financeMessages.projectRequired),
  required("siteId", financeMessages.siteRequired),
  required("periodTo", financeMessages.periodToRequired),
  required("statementDate", financeMessages.statementDateRequired),
  check(
    "statementDate",
    (data) => !data.periodTo || !data.statementDate || data.statementDate >= data.periodTo,
    financeMessages.statementBeforePeriod,
  ),
);

export const normalizeStatement = <T extends StatementForm>(data: T): T =>
  emptiedToNull(data, ["periodTo", "statementDate"]);

export const emptyStatement = (): StatementForm => ({
  projectId: null,
  siteId: null,
  periodTo: null,
  statementDate: null,
  externalInvoiceNumber: "",
  closeOut: false,
});

export const statementLineSchema = z.strictObject({
  description: text(200),
  amount: amountText(),
});

export type PaymentAllocation = { statementId: number; statementUuid?: string; amount: string };
export type Payment = {
  id: number;
  uuid: string;
  version: number;
  projectId: number;
  projectName: string;
  siteId: number;
  siteCode: string;
  receivedDate: string;
  currency: Currency;
  amount: string;
  reference: string | null;
  allocated: string;
  unapplied: string;
  allocations: PaymentAllocation[];
};

export const paymentSchema = z.strictObject({
  ...recordMeta,
  projectId: idRef().nullish(),
  siteId: idRef().nullish(),
  receivedDate: dateField(),
  amount: amountText().nullish(),
  reference: text(100).nullish(),
  allocations: z
    .array(
      z.strictObject({ statementId: idRef(), statementUuid: z.string().nullish(), amount: amountText() }),
    )
    .max(200)
    .nullish(),
  currency: z.string().nullish(),
  allocated: z.string().nullish(),
  unapplied: z.string().nullish(),
  ...viewTexts("projectName", "siteCode"),
});
export type PaymentInput = z.infer<typeof paymentSchema>;
type PaymentForm = Partial<PaymentInput>;

export const validatePayment = validator<PaymentForm>(
  required("projectId", financeMessages.projectRequired),
  required("siteId", financeMessages.siteRequired),
  required("receivedDate", financeMessages.receivedDateRequired),
  required("amount", financeMessages.amountRequired),
  check(
    "amount",
    (data) => !data.amount || !/^-|^0*(\.0*)?$/.test(data.amount),
    financeMessages.amountPositive,
  ),
);

export const normalizePayment = <T extends PaymentForm>(data: T): T => emptiedToNull(data, ["receivedDate"]);

export const emptyPayment = (): PaymentForm => ({
  projectId: null,
  siteId: null,
  receivedDate: null,
  amount: "",
  reference: "",
  allocations: [],
});

/** GET /api/finance/aging → data: the open gross by how late it is, and what is not billed yet. */
export type Aging = {
  currency: Currency;
  asOf: string;
  notDue: string;
  days1to30: string;
  days31to60: string;
  days61to90: string;
  over90: string;
  unbilled: string;
  awaitingVerification: string;
  heldBack: string;
  unappliedCredit: string;
};
