import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  emptyProject,
  type FinanceNumberField,
  financeNumberFields,
  firstProjectTabWithError,
  normalizeProject,
  projectFieldTab,
  projectInternalCodeOf,
  projectSchema,
  projectTabErrorCounts,
  readFinanceInput,
  validateProject,
} from "./projects";

const valid = () => {
  const project = emptyProject();
  return {
    ...project,
    workingName: "Cardio",
    protocolNr: "PR-2025-001",
    internalCode: "CROSPOCAR001",
    projectStatusId: 30,
    siteIds: [1],
    details: { ...project.details, phase: 2, therapyAreaId: 4, croId: 1, sponsorId: 2 },
  } as ReturnType<typeof emptyProject>;
};

describe("projects", () => {
  it("refuses an official URL that is not an http or https web address (issue 46)", () => {
    const withUrl = (officialUrl: string) =>
      validateProject({ ...valid(), details: { ...valid().details, officialUrl } });
    const message = "Official URL must be a web address starting with http:// or https://";
    for (const url of ["https://clinicaltrials.gov/study/NCT01234567", "http://example.org", ""])
      expect(withUrl(url)).toEqual({});
    for (const url of [
      "javascript:alert(1)",
      "ftp://example.org/trial",
      "clinicaltrials.gov",
      "https://",
      "https://a b.org",
    ])
      expect(withUrl(url)).toEqual({ "details.officialUrl": message });
  });

  it("gives every required message, keyed by field path, in the spec's order", () => {
    const errors = validateProject({ ...emptyProject(), internalCode: "" });
    expect(Object.entries(errors)).toEqual([
      ["workingName", "Working name is required"],
      ["protocolNr", "Protocol number is required"],
      ["internalCode", "Internal code is required"],
      ["details.sponsorId", "Sponsor is required"],
      ["details.croId", "CRO is required"],
      ["details.therapyAreaId", "Therapy area is required"],
      ["details.phase", "Phase is required"],
      ["projectStatusId", "Status is required"],
      ["siteIds", "At least one site is required"],
    ]);
  });

  it("lets a complete project pass, and refuses a paid percentage over 100", () => {
    const project = valid();
    expect(validateProject(project)).toEqual({});
    const over = { ...project, finance: { ...project.finance, paidPercentage: 101 } };
    expect(validateProject(over)).toEqual({ "finance.paidPercentage": "Paid percentage cannot exceed 100" });
    expect(projectSchema.safeParse(over).success).toBe(true);
  });

  it("counts errors per tab; all required ones are on Basic", () => {
    const errors = validateProject({
      ...emptyProject(),
      finance: { ...emptyProject().finance, paidPercentage: 150 },
    });
    expect(projectTabErrorCounts(errors)).toEqual({
      Basic: 8,
      Details: 0,
      Settings: 0,
      Finance: 1,
      Staff: 0,
    });
    expect(firstProjectTabWithError(errors)).toBe("Basic");
    expect(firstProjectTabWithError({ "finance.vat": "x", "settings.rescreen": "y" })).toBe("Settings");
    expect(firstProjectTabWithError({})).toBeNull();
  });

  it("places fields on their tabs, server paths included", () => {
    expect(projectFieldTab("details.phase")).toBe("Basic");
    expect(projectFieldTab("siteIds.0")).toBe("Basic");
    expect(projectFieldTab("details.officialTitle")).toBe("Details");
    expect(projectFieldTab("finance.currency")).toBe("Finance");
    expect(projectFieldTab("settings.rescreen")).toBe("Settings");
  });

  it("computes the internal code from the chosen partners and therapy area", () => {
    const project = valid();
    const partners = [
      { id: 1, code: "CRX" },
      { id: 2, code: "SPO" },
    ];
    expect(projectInternalCodeOf(project, partners, [{ id: 4, code: "CAR" }])).toBe("CRXSPOCAR001");
    expect(projectInternalCodeOf(project, partners, [])).toBe("CRXSPO???001");
  });

  it("truncates finance numbers to 3 digits", () => {
    const project = valid();
    const finance = normalizeProject({
      ...project,
      finance: { ...project.finance, settlementDays: 1234, paymentDays: 30, paidPercentage: 1000 },
    }).finance;
    expect(finance).toMatchObject({ settlementDays: 123, paymentDays: 30, paidPercentage: 100 });
  });

  it("accepts the empty form's shape and refuses unknown values", () => {
    expect(projectSchema.safeParse(emptyProject()).success).toBe(true);
    expect(projectSchema.safeParse({ ...valid(), projectStatusId: 35 }).success).toBe(false);
    const project = valid();
    expect(projectSchema.safeParse({ ...project, finance: { ...project.finance, vat: 20 } }).success).toBe(
      false,
    );
    expect(
      projectSchema.safeParse({ ...project, finance: { ...project.finance, currency: "JPY" } }).success,
    ).toBe(false);
  });
});

describe("finance number inputs", () => {
  const typed = (text: string, field: FinanceNumberField) =>
    [...text].reduce((shown, key) => readFinanceInput(shown + key, field).text, "");

  it("give the same text and value typed key by key as pasted, for any input", () => {
    const fields = Object.keys(financeNumberFields) as FinanceNumberField[];
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."0123456789.,-a ") }),
        fc.constantFrom(...fields),
        (text, field) => {
          const pasted = readFinanceInput(text, field);
          expect(readFinanceInput(typed(text, field), field)).toEqual(pasted);
        },
      ),
    );
  });

  it("the patient fee holds decimals (a comma too), cut to 2", () => {
    expect(readFinanceInput("12.5", "finance.patientFee")).toEqual({
      text: "12.5",
      value: 12.5,
      error: null,
    });
    expect(readFinanceInput("12,75", "finance.patientFee").value).toBe(12.75);
    expect(readFinanceInput("12.345", "finance.patientFee")).toMatchObject({ text: "12.34", value: 12.34 });
    expect(readFinanceInput("", "finance.patientFee")).toEqual({ text: "", value: null, error: null });
  });

  it("whole-number fields refuse decimals and negatives with a message instead of changing the number", () => {
    expect(readFinanceInput("12.5", "finance.settlementDays")).toEqual({
      text: "12.5",
      value: null,
      error: "Must be a whole number",
    });
    expect(readFinanceInput("-5.5", "finance.paymentDays").error).toBe("Must not be negative");
    expect(readFinanceInput("-5", "finance.patientFee").error).toBe("Must not be negative");
    expect(readFinanceInput("1.2.3", "finance.patientFee").error).toBe("Must be a number");
    expect(readFinanceInput("1234", "finance.paidPercentage")).toEqual({
      text: "123",
      value: 123,
      error: null,
    });
  });

  it("the wire schema takes a fee of 2 decimals and refuses a longer one instead of rounding it", () => {
    const project = valid();
    const fee = (patientFee: number) =>
      projectSchema.safeParse({ ...project, finance: { ...project.finance, patientFee } });
    expect(fee(12.34).success).toBe(true);
    expect(fee(1500.1).success).toBe(true);
    expect(fee(12.345).success).toBe(false);
  });

  it("the validator refuses a finance field still holding refused text", () => {
    const project = valid();
    const typedIn = { ...project, finance: { ...project.finance, settlementDays: "12.5" } };
    expect(validateProject(typedIn as never)).toEqual({ "finance.settlementDays": "Must be a whole number" });
    expect(projectSchema.safeParse(typedIn).success).toBe(false);
  });
});
