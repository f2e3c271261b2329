import { z } from "zod";
import { currencies, paidPercentageMax, phaseValues, projectStatusIds, vatOptions } from "../constants";
import { projectInternalCode } from "../rules/automatic-values";
import { financeNumber } from "../rules/numbers";
import { flag, idRef, recordMeta, text } from "../schema";
import { check, type FieldErrors, required, validator, valueAt } from "../validation";
import { count, oneOf, siteIds, viewTexts } from "./fields";

export type ProjectDetails = {
  longName: string | null;
  officialTitle: string | null;
  officialUrl: string | null;
  phase: number | null;
  ipName: string | null;
  therapyAreaId: number | null;
  croId: number | null;
  sponsorId: number | null;
};

export type ProjectFinance = {
  settlementDays: number | null;
  paymentDays: number | null;
  patientFee: number | null;
  currency: string | null;
  vat: number | null;
  paidPercentage: number | null;
  monitoredPercentage: number | null;
};

export type ProjectSettings = { rescreen: boolean; cohortHandling: boolean; hospitalisation: boolean };

export type Project = {
  id: number;
  uuid: string;
  version: number;
  workingName: string;
  protocolNr: string;
  internalCode: string;
  projectStatusId: number;
  siteIds: number[];
  details: ProjectDetails;
  finance: ProjectFinance;
  settings: ProjectSettings;
};

/** Official titles and URLs of registered trials run long; the other texts keep the 50 of spec §5. */
export const projectLongTextMaxLength = 500;
export const financeNumberMax = 999;

export const projectSchema = z.strictObject({
  ...recordMeta,
  workingName: text(),
  protocolNr: text(),
  internalCode: text(),
  projectStatusId: oneOf(projectStatusIds).nullish(),
  siteIds: siteIds().nullish(),
  details: z.strictObject({
    longName: text().nullish(),
    officialTitle: text(projectLongTextMaxLength).nullish(),
    officialUrl: text(projectLongTextMaxLength).nullish(),
    phase: oneOf(phaseValues).nullish(),
    ipName: text().nullish(),
    therapyAreaId: idRef().nullish(),
    croId: idRef().nullish(),
    sponsorId: idRef().nullish(),
  }),
  finance: z.strictObject({
    settlementDays: count(financeNumberMax).nullish(),
    paymentDays: count(financeNumberMax).nullish(),
    // A decimal of 9 digits and 2 decimals (decision 62), refused rather than rounded when sent longer.
    patientFee: z
      .number({ error: "Must be a number" })
      .min(0, "Must not be negative")
      .max(1e9)
      .refine((fee) => Math.abs(fee * 100 - Math.round(fee * 100)) < 1e-6, "At most 2 decimals")
      .nullish(),
    currency: z.enum(currencies).nullish(),
    vat: oneOf(vatOptions).nullish(),
    // Up to 999 on the wire so the validator can say "Paid percentage cannot exceed 100".
    paidPercentage: count(financeNumberMax).nullish(),
    monitoredPercentage: count(100).nullish(),
  }),
  settings: z.strictObject({
    rescreen: flag().optional(),
    cohortHandling: flag().optional(),
    hospitalisation: flag().optional(),
  }),
  // Read-only view fields; accepted so a loaded record can be sent back whole.
  ...viewTexts("therapyAreaName", "croName", "sponsorName"),
});
export type ProjectInput = z.infer<typeof projectSchema>;
type ProjectForm = Partial<ProjectInput>;

/**
 * The finance number fields (spec §5, decision 62): how many whole digits each keeps and how many
 * decimals it holds. Only the patient fee holds decimals.
 */
export const financeNumberFields = {
  "finance.settlementDays": { digits: 3, decimals: 0 },
  "finance.paymentDays": { digits: 3, decimals: 0 },
  "finance.patientFee": { digits: 9, decimals: 2 },
  "finance.paidPercentage": { digits: 3, decimals: 0 },
  "finance.monitoredPercentage": { digits: 3, decimals: 0 },
} as const;
export type FinanceNumberField = keyof typeof financeNumberFields;

/** What a finance number input shows, the number it stands for, and why it is refused if it is. */
export type FinanceInput = { text: string; value: number | null; error: string | null };

/**
 * Reads a finance number input, typed or pasted. Every step works character by character from the
 * left (a decimal comma becomes a point, other characters than digits, point and minus are dropped,
 * whole digits past the field's count and decimals past its count are cut), so typing a text one key
 * at a time gives exactly what pasting it gives. What is not a number of the field (a decimal in a
 * whole-number field, a minus, two points) is kept as typed and refused with a message.
 */
export function readFinanceInput(raw: string, field: FinanceNumberField): FinanceInput {
  const { digits, decimals } = financeNumberFields[field];
  let text = "";
  let wholeDigits = 0;
  let fractionDigits = 0;
  let points = 0;
  for (const char of raw.replaceAll(",", ".")) {
    if (char === ".") {
      points++;
      text += char;
    } else if (char === "-") {
      text += char;
    } else if (/\d/.test(char)) {
      if (points === 0 && wholeDigits < digits) {
        wholeDigits++;
        text += char;
      } else if (points > 0 && (decimals === 0 || fractionDigits < decimals)) {
        fractionDigits++;
        text += char;
      }
    }
  }
  if (text === "") return { text, value: null, error: null };
  const refuse = (error: string) => ({ text, value: null, error });
  if (text.includes("-")) return refuse("Must not be negative");
  if (points > 1 || wholeDigits + fractionDigits === 0) return refuse("Must be a number");
  if (points > 0 && decimals === 0) return refuse("Must be a whole number");
  return { text, value: Number(text), error: null };
}

export const officialUrlInvalidMessage =
  "Official URL must be a web address starting with http:// or https://";

/**
 * The official URL, when given, is a web address a browser opens: http or https with a host, and no
 * spaces (issue 46: "javascript:…" or "ftp://…" were kept and shown as the trial's page).
 */
export function isWebAddress(value: string): boolean {
  if (!/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** A finance field holding refused text (see readFinanceInput) says why. */
const financeNumbersRead = (data: ProjectForm): FieldErrors =>
  Object.fromEntries(
    (Object.keys(financeNumberFields) as FinanceNumberField[]).flatMap((field) => {
      const value = valueAt(data, field);
      const error = typeof value === "string" ? readFinanceInput(value, field).error : null;
      return error ? [[field, error]] : [];
    }),
  );

export const validateProject = validator<ProjectForm>(
  required("workingName", "Working name is required"),
  required("protocolNr", "Protocol number is required"),
  required("internalCode", "Internal code is required"),
  required("details.sponsorId", "Sponsor is required"),
  required("details.croId", "CRO is required"),
  required("details.therapyAreaId", "Therapy area is required"),
  required("details.phase", "Phase is required"),
  required("projectStatusId", "Status is required"),
  required("siteIds", "At least one site is required"),
  financeNumbersRead,
  check(
    "details.officialUrl",
    (data) => {
      const url = data.details?.officialUrl?.trim();
      return !url || isWebAddress(url);
    },
    officialUrlInvalidMessage,
  ),
  check(
    "finance.paidPercentage",
    (data) => Number(data.finance?.paidPercentage ?? 0) <= paidPercentageMax,
    "Paid percentage cannot exceed 100",
  ),
);

/** The editor's tabs, in order. Staff has no content. */
export const projectTabs = ["Basic", "Details", "Settings", "Finance", "Staff"] as const;
export type ProjectTab = (typeof projectTabs)[number];

/** Fields shown on the Basic tab: every required one (spec §5), though some live in details. */
export const projectBasicFields = [
  "workingName",
  "protocolNr",
  "internalCode",
  "details.sponsorId",
  "details.croId",
  "details.therapyAreaId",
  "details.phase",
  "projectStatusId",
  "siteIds",
] as const;

/** The tab a field (or a server field error such as "siteIds.0") is on; unknown fields count on Basic. */
export function projectFieldTab(field: string): ProjectTab {
  const isOn = (path: string) => field === path || field.startsWith(`${path}.`);
  if (projectBasicFields.some(isOn)) return "Basic";
  if (isOn("details")) return "Details";
  if (isOn("settings")) return "Settings";
  if (isOn("finance")) return "Finance";
  return "Basic";
}

/** The red badge count of each tab. */
export function projectTabErrorCounts(errors: FieldErrors): Record<ProjectTab, number> {
  const counts = Object.fromEntries(projectTabs.map((tab) => [tab, 0])) as Record<ProjectTab, number>;
  for (const field of Object.keys(errors)) counts[projectFieldTab(field)]++;
  return counts;
}

/** The tab that opens after a failed save: the first, in tab order, with an error. */
export function firstProjectTabWithError(errors: FieldErrors): ProjectTab | null {
  const counts = projectTabErrorCounts(errors);
  return projectTabs.find((tab) => counts[tab] > 0) ?? null;
}

type Coded = { id: number; code: string };

/**
 * The internal code of a project from the partner and therapy area rows it refers to, so the
 * editor and the server compute it the same way (spec §4 Automatic values).
 */
export function projectInternalCodeOf(
  project: Pick<ProjectForm, "protocolNr" | "details">,
  partners: readonly Coded[],
  therapyAreas: readonly Coded[],
): string {
  const codeOf = (rows: readonly Coded[], id: number | null | undefined) =>
    rows.find((r) => r.id === id)?.code;
  return projectInternalCode({
    croCode: codeOf(partners, project.details?.croId),
    sponsorCode: codeOf(partners, project.details?.sponsorId),
    therapyAreaCode: codeOf(therapyAreas, project.details?.therapyAreaId),
    protocolNr: project.protocolNr,
  });
}

const truncated = (value: number | null | undefined) =>
  typeof value === "number" ? Number(financeNumber(value) || 0) : value;

/** Settlement days, payment days and paid percentage are truncated to 3 digits (spec §5). */
export function normalizeProject<T extends ProjectForm>(data: T): T {
  if (!data.finance) return data;
  return {
    ...data,
    finance: {
      ...data.finance,
      settlementDays: truncated(data.finance.settlementDays),
      paymentDays: truncated(data.finance.paymentDays),
      paidPercentage: truncated(data.finance.paidPercentage),
    },
  };
}

export const emptyProject = (): ProjectForm => ({
  workingName: "",
  protocolNr: "",
  internalCode: projectInternalCode({}),
  projectStatusId: null,
  siteIds: [],
  details: {
    longName: "",
    officialTitle: "",
    officialUrl: "",
    phase: null,
    ipName: "",
    therapyAreaId: null,
    croId: null,
    sponsorId: null,
  },
  finance: {
    settlementDays: null,
    paymentDays: null,
    patientFee: null,
    currency: null,
    vat: null,
    paidPercentage: null,
    monitoredPercentage: null,
  },
  settings: { rescreen: false, cohortHandling: false, hospitalisation: false },
});

/** The names of the referenced records that GET projects and GET projects/{uuid} give beside the record. */
export type ProjectView = Project & { therapyAreaName: string; croName: string; sponsorName: string };

/** Rows of GET projects: the list shows id, workingName, protocolNr, internalCode and phase (details.phase). */
export type ProjectListRow = ProjectView;

/** Rows of GET projects?format=option-view (page 1, size 250). */
export type ProjectOption = {
  id: number;
  uuid: string;
  workingName: string;
  protocolNr: string;
  status: number;
};
