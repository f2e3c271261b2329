import { describe, expect, it } from "vitest";
import {
  closeReasons,
  optionLabel,
  phases,
  projectStatuses,
  randomisationVisitType,
  visitStatuses,
  visitTypes,
} from "./constants";

describe("constants", () => {
  it("lists the 15 visit types in order, 50 being the randomisation", () => {
    expect(visitTypes.map((t) => t.value)).toEqual([
      10, 20, 25, 30, 40, 50, 60, 65, 70, 80, 90, 100, 110, 120, 130,
    ]);
    expect(optionLabel(visitTypes, randomisationVisitType)).toBe("Randomisation");
    expect(optionLabel(visitTypes, 130)).toBe("Phone follow up");
  });

  it("names project statuses, phases and close reasons as the spec does", () => {
    expect(projectStatuses.map((s) => `${s.value} ${s.label}`)).toEqual([
      "10 PRE-TO START",
      "20 TO START",
      "30 RECRUITING",
      "40 ONGOING",
      "50 COMPLETED",
      "100 CANCELLED",
      "110 DELAYED",
    ]);
    expect(phases.map((p) => p.label)).toEqual(["I", "II", "III", "IV"]);
    expect(closeReasons.map((r) => r.label)).toEqual(["Cancelled", "Died", "End of study"]);
    expect(visitStatuses.map((s) => s.label)).toEqual([
      "Booked",
      "Cancelled",
      "No show",
      "Arrived",
      "Completed",
    ]);
  });

  it("falls back to the value for an unlisted one and to nothing for no value", () => {
    expect(optionLabel(visitTypes, 999 as never)).toBe("999");
    expect(optionLabel(visitTypes, null)).toBe("");
  });
});
