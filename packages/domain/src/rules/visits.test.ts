import { describe, expect, it } from "vitest";
import { canChooseRandomisation, isVisitTypeDisabled } from "./visits";

const studyVisits = [
  { id: 1, visitTypeId: 20 },
  { id: 2, visitTypeId: 50 },
];

describe("randomisation visit", () => {
  it("may be chosen while the study has none", () => {
    expect(canChooseRandomisation([{ id: 1, visitTypeId: 20 }])).toBe(true);
    expect(canChooseRandomisation([])).toBe(true);
  });

  it("is disabled once the study has one, except for that visit itself", () => {
    expect(canChooseRandomisation(studyVisits)).toBe(false);
    expect(canChooseRandomisation(studyVisits, 1)).toBe(false);
    expect(canChooseRandomisation(studyVisits, 2)).toBe(true);
    expect(isVisitTypeDisabled(50, studyVisits)).toBe(true);
    expect(isVisitTypeDisabled(60, studyVisits)).toBe(false);
  });
});
