import { describe, expect, it } from "vitest";
import { birthDateRule } from "../rules/dates";
import {
  canAddContact,
  canRemoveContact,
  emptyPatient,
  normalizePatient,
  patientSchema,
  preparePatientForSave,
  validatePatient,
} from "./patients";

const named = () => {
  const patient = emptyPatient();
  return {
    ...patient,
    patientDetail: { ...patient.patientDetail, sex: "UNK" as const, firstName: "Anna", lastName: "Kiss" },
  };
};

describe("patients", () => {
  it("takes confirmDuplicate as an input-only flag, true or false (issue 46)", () => {
    const base = { ...named(), contacts: [] };
    expect(patientSchema.safeParse({ ...base, confirmDuplicate: true }).success).toBe(true);
    expect(patientSchema.safeParse(base).success).toBe(true);
    const wrong = patientSchema.safeParse({ ...base, confirmDuplicate: "yes" });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]).toMatchObject({
      path: ["confirmDuplicate"],
      message: "Must be true or false",
    });
  });

  it("passes a named patient", () => {
    expect(validatePatient(named())).toEqual({});
  });

  it("refuses an e-mail contact that is not an e-mail address, on its value", () => {
    const withContacts = (contacts: object[]) => ({ ...named(), contacts }) as never;
    expect(
      validatePatient(
        withContacts([
          { id: null, contactType: "PHONE", value: "+36 1 234 5678", notes: "" },
          { id: null, contactType: "EMAIL", value: "not an email", notes: "" },
        ]),
      ),
    ).toEqual({ "contacts.1.value": "Email is not valid" });
    expect(
      validatePatient(
        withContacts([{ id: null, contactType: "EMAIL", value: "anna@example.com", notes: "" }]),
      ),
    ).toEqual({});
  });

  it("refuses a phone number that is not valid for its country, on its value (issue 46)", () => {
    const withPhones = (...values: string[]) =>
      ({
        ...named(),
        contacts: values.map((value) => ({ id: null, contactType: "PHONE", value, notes: "" })),
      }) as never;
    // "12" is saved as "+12": no country has such a number.
    expect(validatePatient(preparePatientForSave(withPhones("12"), "HU"))).toEqual({
      "contacts.0.value": "Phone number is not valid",
    });
    expect(validatePatient(withPhones("+36 30 123 4567", "+36 1 234"))).toEqual({
      "contacts.1.value": "Phone number is not valid",
    });
    expect(validatePatient(withPhones("+1 212 555 0100"))).toEqual({});
    // Other characters are the schema's to refuse ("Only digits, plus and spaces").
    expect(validatePatient(withPhones("call me"))).toEqual({});
  });

  it("keeps a one-digit country code on save: +1 stays +1 (issue 46)", () => {
    const patient = {
      ...named(),
      contacts: [{ id: null, contactType: "PHONE" as const, value: "+1 212 555 0100", notes: "" }],
    };
    expect(preparePatientForSave(patient, "HU").contacts?.[0].value).toBe("+1 212 555 0100");
  });

  it("normalises phones on save as numbers of the site's country", () => {
    const patient = {
      ...named(),
      contacts: [{ id: null, contactType: "PHONE" as const, value: "06 30 123 4567", notes: "" }],
    };
    expect(preparePatientForSave(patient, "HU").contacts?.[0].value).toBe("+36 30 123 4567");
  });

  it("given the age bounds, refuses a birth date outside them", () => {
    const rule = birthDateRule("2026-11-23", 18, 100);
    const born = (birthDate: string) => ({
      ...named(),
      patientDetail: { ...named().patientDetail, birthDate },
    });
    expect(validatePatient(born("1990-05-17"), rule)).toEqual({});
    expect(validatePatient(born("2030-12-31"), rule)).toEqual({
      "patientDetail.birthDate": "Birth date must be between 1925-11-24 and 2008-11-23 (age 18 to 100)",
    });
  });

  it("starts active, sex UNK, one empty phone contact and a DEFAULT address", () => {
    const patient = emptyPatient();
    expect(patient.status).toBe(1);
    expect(patient.patientDetail?.sex).toBe("UNK");
    expect(patient.contacts).toEqual([{ id: null, contactType: "PHONE", value: "", notes: "" }]);
    expect(patient.address?.addressType).toBe("DEFAULT");
    expect(patientSchema.safeParse(patient).success).toBe(true);
  });

  it("masks inputs on every change without removing anything", () => {
    const patient = normalizePatient({
      ...named(),
      patientDetail: { ...named().patientDetail, birthDate: "19900115", birthCountryCode: "hu" },
      contacts: [
        { id: null, contactType: "PHONE", value: "+36 (30) 1", notes: "" },
        { id: null, contactType: "EMAIL", value: "", notes: "" },
      ],
    });
    expect(patient.patientDetail?.birthDate).toBe("1990-01-15");
    expect(patient.patientDetail?.birthCountryCode).toBe("HU");
    expect(patient.contacts?.map((c) => c.value)).toEqual(["+36 30 1", ""]);
  });

  it("on save normalises phones and leaves out empty contacts", () => {
    const patient = preparePatientForSave({
      ...named(),
      contacts: [
        { id: null, contactType: "PHONE", value: "0036 30 123 4567 ", notes: "" },
        { id: null, contactType: "PHONE", value: "", notes: null },
        { id: null, contactType: "EMAIL", value: " anna@example.com ", notes: "work" },
      ],
    });
    expect(patient.contacts).toEqual([
      { id: null, contactType: "PHONE", value: "+36 30 123 4567", notes: "" },
      { id: null, contactType: "EMAIL", value: "anna@example.com", notes: "work" },
    ]);
  });

  it("enforces the contact limits on the wire", () => {
    const withContact = (contactType: "PHONE" | "EMAIL", value: string) =>
      patientSchema.safeParse({ ...named(), contacts: [{ contactType, value, notes: null }] });
    expect(withContact("PHONE", "+36 30 123 4567").success).toBe(true);
    expect(withContact("PHONE", "+36 30 123 4567 8901").success).toBe(false);
    expect(withContact("PHONE", "call me").success).toBe(false);
    expect(withContact("EMAIL", `${"a".repeat(50)}@example.com`).success).toBe(false);
  });

  it("enables Add only when every contact has type and value, and keeps the first contact", () => {
    expect(canAddContact([{ contactType: "PHONE", value: "" }])).toBe(false);
    expect(canAddContact([{ contactType: null, value: "+36 1" }])).toBe(false);
    expect(canAddContact([{ contactType: "PHONE", value: "+36 1" }])).toBe(true);
    expect(canRemoveContact(0)).toBe(false);
    expect(canRemoveContact(1)).toBe(true);
  });
});
