import { describe, expect, it } from "vitest";
import { validator } from "../validation";
import {
  demoPasswords,
  emailRules,
  isDemoPassword,
  isNewRecord,
  passwordRules,
  validatePasswordChange,
  withCommonPasswordRule,
} from "./passwords";

describe("password rules", () => {
  const validate = validator<{ id?: number; password?: string; password2?: string }>(...passwordRules());

  it("treats a record without a numeric id as new", () => {
    expect(isNewRecord({})).toBe(true);
    expect(isNewRecord({ id: null })).toBe(true);
    expect(isNewRecord({ id: 5 })).toBe(false);
  });

  it("requires both passwords for new records only", () => {
    expect(validate({})).toEqual({
      password: "Password is required",
      password2: "Password confirmation is required",
    });
    expect(validate({ id: 1 })).toEqual({});
  });

  it("checks an exactly-8-character password as long enough", () => {
    expect(validate({ password: "12345678", password2: "12345678" })).toEqual({});
    expect(validate({ password: "1234567", password2: "1234567" })).toEqual({
      password: "Password is too short. It should be at least 8 characters.",
    });
  });

  it("refuses the demo passwords, whatever their case, once they are long enough (issue 46)", () => {
    const demo = "This password is publicly known (a demo password); choose another";
    expect(demoPasswords).toEqual(["admin1234", "staff1234", "monitor1234"]);
    for (const password of [...demoPasswords, "Admin1234", "MONITOR1234"]) {
      expect(isDemoPassword(password)).toBe(true);
      expect(validate({ password, password2: password })).toEqual({ password: demo });
      expect(validate({ id: 4, password, password2: password })).toEqual({ password: demo });
      expect(validatePasswordChange({ currentPassword: "x", password, password2: password })).toEqual({
        password: demo,
      });
    }
    expect(isDemoPassword("admin12345")).toBe(false);
    expect(validate({ id: 4, password: "", password2: "" })).toEqual({});
  });

  it("checks the e-mail only once one is given", () => {
    const email = validator<{ email?: string }>(...emailRules());
    expect(email({})).toEqual({ email: "Email is required" });
    expect(email({ email: "x@y" })).toEqual({ email: "Email is not valid" });
    expect(email({ email: "x@y.hu" })).toEqual({});
  });
});

describe("the common-password rule", () => {
  const validate = withCommonPasswordRule(
    validator<{ id?: number; password?: string; password2?: string }>(...passwordRules()),
    (password) => ["password123", "qwerty"].includes(password.toLowerCase()),
  );

  it("refuses a listed password only once the spec's rules pass (length first)", () => {
    expect(validate({ password: "Password123", password2: "Password123" })).toEqual({
      password: "Password is too common. Please choose one that is harder to guess.",
    });
    expect(validate({ password: "qwerty", password2: "qwerty" })).toEqual({
      password: "Password is too short. It should be at least 8 characters.",
    });
    expect(validate({ password: "Tidy-Heron-417", password2: "Tidy-Heron-417" })).toEqual({});
  });

  it("leaves an existing record's empty password alone", () => {
    expect(validate({ id: 3, password: "", password2: "" })).toEqual({});
  });
});
