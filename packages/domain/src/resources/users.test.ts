import { describe, expect, it } from "vitest";
import { validatePasswordChange } from "../rules/passwords";
import { userSchema, validateUser } from "./users";

const filled = { email: "anna@example.com", profile: { firstName: "Anna", lastName: "Kovacs" } };

describe("users", () => {
  it("checks the e-mail shape after it is given", () => {
    expect(validateUser({ ...filled, email: "anna@", id: 1 }).email).toBe("Email is not valid");
  });

  it("says when passwords differ and when one is too short", () => {
    expect(validateUser({ ...filled, password: "secret12", password2: "secret13" })).toEqual({
      password2: "Passwords do not match",
    });
    expect(validateUser({ ...filled, password: "short", password2: "short" })).toEqual({
      password: "Password is too short. It should be at least 8 characters.",
    });
    expect(validateUser({ ...filled, password: "secret12", password2: "secret12" })).toEqual({});
  });

  it("refuses a demo password in the form, new user or reset (issue 46)", () => {
    const demo = { password: "This password is publicly known (a demo password); choose another" };
    expect(validateUser({ ...filled, password: "staff1234", password2: "staff1234" })).toEqual(demo);
    expect(validateUser({ ...filled, id: 7, password: "admin1234", password2: "admin1234" })).toEqual(demo);
  });

  it("does not ask an existing user for a password unless one is typed", () => {
    expect(validateUser({ ...filled, id: 7, password: "", password2: "" })).toEqual({});
    expect(validateUser({ ...filled, id: 7, password: "abc", password2: "" })).toEqual({
      password2: "Passwords do not match",
      password: "Password is too short. It should be at least 8 characters.",
    });
  });

  it("validates a password change with the same rules", () => {
    expect(validatePasswordChange({})).toEqual({
      currentPassword: "Current password is required",
      password: "Password is required",
      password2: "Password confirmation is required",
    });
    expect(
      validatePasswordChange({ currentPassword: "x", password: "abcdefgh", password2: "abcdefgh" }),
    ).toEqual({});
  });

  it("accepts a loaded user sent back whole, but no unknown field", () => {
    const loaded = {
      ...filled,
      id: 3,
      uuid: "usr-1",
      version: 2,
      isActive: true,
      isAdmin: false,
      siteIds: [1, 2],
      lastPasswordChangeDate: "2025-01-01T10:00:00Z",
      hasPassword: true,
    };
    expect(userSchema.safeParse(loaded).success).toBe(true);
    expect(userSchema.safeParse({ ...loaded, passwordHash: "x" }).success).toBe(false);
  });

  it("says a password over 50 characters is too long, not that it is not text (issue 46)", () => {
    const long = userSchema.safeParse({ ...filled, password: "x".repeat(51), password2: "x".repeat(51) });
    expect(long.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["password", "Must be at most 50 characters"],
      ["password2", "Must be at most 50 characters"],
    ]);
    expect(userSchema.safeParse({ ...filled, password: 5 }).error?.issues[0]?.message).toBe("Must be text");
  });
});
