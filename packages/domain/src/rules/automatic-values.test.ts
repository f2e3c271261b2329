import { describe, expect, it } from "vitest";
import { projectInternalCode, studyWorkingName } from "./automatic-values";

describe("project internal code", () => {
  it("joins the CRO, sponsor and therapy area codes and the protocol number's last 3 characters", () => {
    expect(
      projectInternalCode({
        croCode: "CRX",
        sponsorCode: "SPO",
        therapyAreaCode: "CAR",
        protocolNr: "PR-2025-042",
      }),
    ).toBe("CRXSPOCAR042");
  });

  it("writes ??? for each missing code", () => {
    expect(projectInternalCode({ sponsorCode: "SPO", protocolNr: "X1" })).toBe("???SPO???X1");
    expect(projectInternalCode({ croCode: " ", therapyAreaCode: null })).toBe("?????????");
  });
});

describe("study working name", () => {
  it("is the protocol number, an underscore and the variant", () => {
    expect(studyWorkingName("PR-2025-042", "SUB-STUDY")).toBe("PR-2025-042_SUB-STUDY");
    expect(studyWorkingName("PR-1", null)).toBe("PR-1_");
  });
});
