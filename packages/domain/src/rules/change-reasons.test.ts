import { describe, expect, it } from "vitest";
import { resourceNames } from "../registry";
import {
  changeNeedsReason,
  changeReasonError,
  changeReasonMessages,
  commonChangeReasons,
  decodeChangeReason,
  encodeChangeReason,
} from "./change-reasons";

describe("the reason for a change of recorded clinical data (issue 46, point 1)", () => {
  it("is asked for an edit or deletion of a patient, a study assignment or a recorded patient visit only", () => {
    const asking = resourceNames.filter((name) => changeNeedsReason(name, { visitStatus: "COMPLETED" }));
    expect(asking).toEqual(["patients", "study-patients", "patient-visits"]);
  });

  it("is not asked when a record is created", () => {
    expect(changeNeedsReason("patients", null)).toBe(false);
    expect(changeNeedsReason("patient-visits", null)).toBe(false);
  });

  it("is not asked of a visit that is only booked, an appointment with nothing recorded (decision 229)", () => {
    expect(changeNeedsReason("patient-visits", { visitStatus: "BOOKED" })).toBe(false);
    for (const status of ["COMPLETED", "NO_SHOW", "CANCELLED"])
      expect(changeNeedsReason("patient-visits", { visitStatus: status })).toBe(true);
    // A patient or an assignment has no visit status: always asked.
    expect(changeNeedsReason("patients", {})).toBe(true);
  });

  it("offers the common reasons as the spec names them", () => {
    expect(commonChangeReasons).toEqual(["Transcription error", "Late entry", "Source corrected"]);
  });

  it("refuses a blank reason where one is needed, and one over 500 characters anywhere", () => {
    expect(changeReasonError(null, true)).toBe("A reason for the change is required");
    expect(changeReasonError("   ", true)).toBe(changeReasonMessages.required);
    expect(changeReasonError("", false)).toBeNull();
    expect(changeReasonError("Late entry", true)).toBeNull();
    expect(changeReasonError("x".repeat(500), true)).toBeNull();
    // Counted without the spaces around it, which are not kept.
    expect(changeReasonError(` ${"x".repeat(500)} `, true)).toBeNull();
    expect(changeReasonError("x".repeat(501), false)).toBe(
      "A reason for the change must be at most 500 characters",
    );
  });

  it("travels percent-encoded in the header and comes back as typed", () => {
    for (const typed of ["Typo – fixed", "Hibás átírás: ő", "100% sure", "a%20b"]) {
      const sent = encodeChangeReason(typed);
      expect(sent).toMatch(/^[\x20-\x7e]*$/);
      expect(decodeChangeReason(sent)).toBe(typed);
    }
    expect(decodeChangeReason("  Late entry ")).toBe("Late entry");
    expect(decodeChangeReason("   ")).toBeNull();
    expect(decodeChangeReason(undefined)).toBeNull();
  });
});
