import { describe, expect, it } from "vitest";
import { isActiveStatus, patientName, patientOptionLabel } from "./patients";

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

describe("patient options", () => {
  it("name the patient with the barcode and mark an inactive one", () => {
    const anna = { lastName: "Kovács", firstName: "Anna", barcode: "BUD-000042" };
    expect(patientOptionLabel({ ...anna, status: 1 })).toBe("Kovács Anna (BUD-000042)");
    expect(patientOptionLabel({ ...anna, status: 0 })).toBe("Kovács Anna (BUD-000042) — Inactive");
    // A label made from form data that carries no status says nothing of it.
    expect(patientOptionLabel(anna)).toBe("Kovács Anna (BUD-000042)");
  });
});
