import { describe, expect, it } from "vitest";
import { normalizeMonitor, validateMonitor } from "./monitors";

describe("monitors", () => {
  it("applies the password rules to existing monitors only when a password is typed", () => {
    const base = { id: 4, email: "m@example.com", firstName: "Mo", lastName: "Nitor" };
    expect(validateMonitor(base)).toEqual({});
    expect(validateMonitor({ ...base, password: "longenough", password2: "different1" })).toEqual({
      password2: "Passwords do not match",
    });
    expect(validateMonitor({ ...base, password: "monitor1234", password2: "monitor1234" })).toEqual({
      password: "This password is publicly known (a demo password); choose another",
    });
  });

  it("trims the e-mail", () => {
    expect(normalizeMonitor({ email: " m@example.com " }).email).toBe("m@example.com");
  });
});
