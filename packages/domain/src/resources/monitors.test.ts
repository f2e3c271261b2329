import { describe, expect, it } from "vitest";
import { emptyMonitor, normalizeMonitor, validateMonitor } from "./monitors";

describe("monitors", () => {
  it("uses the user rules on flat name fields", () => {
    expect(Object.entries(validateMonitor(emptyMonitor()))).toEqual([
      ["firstName", "First name is required"],
      ["lastName", "Last name is required"],
      ["email", "Email is required"],
      ["password", "Password is required"],
      ["password2", "Password confirmation is required"],
    ]);
  });

  it("applies the password rules to existing monitors only when a password is typed", () => {
    const base = { id: 4, email: "m@example.com", firstName: "Mo", lastName: "Nitor" };
    expect(validateMonitor(base)).toEqual({});
    expect(validateMonitor({ ...base, password: "longenough", password2: "different1" })).toEqual({
      password2: "Passwords do not match",
    });
  });

  it("trims the e-mail", () => {
    expect(normalizeMonitor({ email: " m@example.com " }).email).toBe("m@example.com");
  });
});
