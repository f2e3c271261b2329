import { describe, expect, it } from "vitest";
import { isActiveStatus, patientName } from "./patients";

describe("patient rules", () => {
  it("treats status 1 as active and anything else as inactive", () => {
    expect(isActiveStatus(1)).toBe(true);
    expect(isActiveStatus("1")).toBe(true);
    for (const status of [0, 2, -1, null, undefined, true]) expect(isActiveStatus(status)).toBe(false);
  });

  it("names a patient last name first", () => {
    expect(patientName("Kiss", "Anna")).toBe("Kiss Anna");
    expect(patientName("Kiss", null)).toBe("Kiss");
    expect(patientName(" ", "Anna")).toBe("Anna");
  });
});
