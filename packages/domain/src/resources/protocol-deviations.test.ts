import { describe, expect, it } from "vitest";
import {
  automaticDeviationText,
  deviationMessages,
  emptyProtocolDeviation,
  protocolDeviationSchema,
  validateProtocolDeviation,
} from "./protocol-deviations";

const manual = {
  ...emptyProtocolDeviation(),
  patientId: 1,
  studyId: 2,
  kind: "PROCEDURE" as const,
  description: "ECG skipped",
};

describe("protocol deviations", () => {
  it("asks for patient, study, kind and description", () => {
    expect(validateProtocolDeviation(emptyProtocolDeviation())).toEqual({
      patientId: deviationMessages.patientRequired,
      studyId: deviationMessages.studyRequired,
      kind: deviationMessages.kindRequired,
      description: deviationMessages.descriptionRequired,
    });
    expect(validateProtocolDeviation(manual)).toEqual({});
  });

  it("needs the date of each status move", () => {
    expect(validateProtocolDeviation({ ...manual, status: "REPORTED" })).toEqual({
      reportedOn: deviationMessages.reportedOnRequired,
    });
    expect(validateProtocolDeviation({ ...manual, status: "REPORTED", reportedOn: "2026-11-02" })).toEqual(
      {},
    );
    expect(validateProtocolDeviation({ ...manual, status: "CLOSED" })).toEqual({
      closedOn: deviationMessages.closedOnRequired,
    });
    expect(
      validateProtocolDeviation({
        ...manual,
        status: "CLOSED",
        reportedOn: "2026-11-05",
        closedOn: "2026-11-02",
      }),
    ).toEqual({ closedOn: deviationMessages.closedBeforeReported });
  });

  it("leaves the automatic kinds to Trialdesk, and refuses a kind it does not know", () => {
    expect(validateProtocolDeviation({ ...manual, kind: "OUT_OF_WINDOW" })).toEqual({
      kind: deviationMessages.automaticKind,
    });
    expect(validateProtocolDeviation({ ...manual, kind: "OUT_OF_WINDOW", source: "AUTOMATIC" })).toEqual({});
    const parsed = protocolDeviationSchema.safeParse({ ...manual, kind: "LATE_LUNCH" });
    expect(parsed.error?.issues[0]?.path).toEqual(["kind"]);
  });

  it("writes an automatic deviation's text from what the engine derived", () => {
    const window = { windowStart: "2026-03-13", windowEnd: "2026-03-17" };
    expect(automaticDeviationText("OUT_OF_WINDOW", 2, window)).toBe(
      "Visit completed 2 days after its window closed (13 Mar – 17 Mar 2026).",
    );
    expect(automaticDeviationText("OUT_OF_WINDOW", -1, window)).toBe(
      "Visit completed 1 day before its window opened (13 Mar – 17 Mar 2026).",
    );
    expect(automaticDeviationText("MISSED_VISIT", null, window)).toBe(
      "Visit missed: its window (13 Mar – 17 Mar 2026) ended without a completed visit.",
    );
  });
});
