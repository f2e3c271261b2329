import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  differs,
  type FormState,
  flatten,
  formReducer,
  routePath,
  useFormState,
  withTypedMeanwhile,
} from "./useFormState";

type Category = { id: number | null; name: string; code: string };
const loaded: Category = { id: 7, name: "Oncology", code: "ONC" };

const patient = () => ({
  id: null as number | null,
  barcode: "",
  status: 1,
  patientDetail: { firstName: "", lastName: "", notes: "" },
  address: { countryCode: "HU", city: "" },
  contacts: [{ contactType: "PHONE", value: "", notes: "" }],
});

describe("unsaved flag compared as strings", () => {
  it("treats 3 and '3', and null and '', as equal", () => {
    expect(differs({ a: 3, b: null }, { a: "3", b: "" })).toBe(false);
    expect(differs({ a: true }, { a: "true" })).toBe(false);
  });
  it("sees a change deep inside blocks and lists", () => {
    expect(differs(patient(), { ...patient(), address: { countryCode: "AT", city: "" } })).toBe(true);
    const p = patient();
    expect(
      differs(p, { ...p, contacts: [...p.contacts, { contactType: "EMAIL", value: "", notes: "" }] }),
    ).toBe(true);
    expect(differs({ list: [] }, { list: [1] })).toBe(true);
  });
  it("flattens to dotted paths", () => {
    expect(flatten({ a: { b: 1 }, c: [{ d: null }] })).toEqual({ "a.b": "1", "c.0.d": "" });
  });
});

describe("setValue routing", () => {
  it("writes a key where it exists: top level, patientDetail or address", () => {
    const data = patient();
    expect(routePath(data, "barcode")).toBe("barcode");
    expect(routePath(data, "firstName")).toBe("patientDetail.firstName");
    expect(routePath(data, "city")).toBe("address.city");
    expect(routePath(data, "address.city")).toBe("address.city");
    // Unknown keys and keys inside lists stay at the top level.
    expect(routePath(data, "value")).toBe("value");
  });
});

describe("a save's answer and what was typed meanwhile", () => {
  const sent = {
    ...patient(),
    patientDetail: { firstName: "anna", lastName: "Kovács", notes: "" },
    contacts: [{ contactType: "PHONE", value: "+36 1" }],
  };
  const saved = { ...sent, id: 4, version: 1, patientDetail: { ...sent.patientDetail, firstName: "Anna" } };

  it("is the saved record when nothing was typed", () => {
    expect(withTypedMeanwhile(saved, sent, sent)).toEqual(saved);
  });

  it("keeps a value typed meanwhile inside a part, the rest of the part as saved", () => {
    const typed = { ...sent, patientDetail: { ...sent.patientDetail, notes: "fasting" } };
    expect(withTypedMeanwhile(saved, sent, typed)).toEqual({
      ...saved,
      patientDetail: { firstName: "Anna", lastName: "Kovács", notes: "fasting" },
    });
  });

  it("keeps a list changed meanwhile whole, and the saved record's id and version", () => {
    const contacts = [...sent.contacts, { contactType: "EMAIL", value: "a@example.com" }];
    const merged = withTypedMeanwhile(saved, sent, { ...sent, contacts });
    expect(merged).toMatchObject({ id: 4, version: 1, contacts });
  });
});

describe("useFormState", () => {
  it("marks a change, clears the flag when the value goes back, and resets", () => {
    const { result } = renderHook(() => useFormState<Category>(() => ({ id: null, name: "", code: "" })));
    act(() => result.current.setLoaded(loaded));
    expect(result.current.unsaved).toBe(false);
    act(() => result.current.setValue("name", "Oncology 2"));
    expect(result.current.unsaved).toBe(true);
    expect(result.current.formData.name).toBe("Oncology 2");
    expect(result.current.originalData.name).toBe("Oncology");
    act(() => result.current.setValue("name", "Oncology"));
    expect(result.current.unsaved).toBe(false);
    act(() => result.current.setValue("code", "XX"));
    act(() => result.current.setErrors({ name: "Name is required" }));
    act(() => result.current.reset());
    expect(result.current.formData).toEqual(loaded);
    expect(result.current.errors).toEqual({});
    expect(result.current.unsaved).toBe(false);
  });

  it("setLoaded replaces both original and form data and clears the flag", () => {
    const { result } = renderHook(() => useFormState<Category>(() => ({ id: null, name: "", code: "" })));
    act(() => result.current.setValue("name", "Draft"));
    expect(result.current.unsaved).toBe(true);
    act(() => result.current.setLoaded({ id: 9, name: "Saved", code: "SAV" }));
    expect(result.current.unsaved).toBe(false);
    expect(result.current.originalData).toEqual({ id: 9, name: "Saved", code: "SAV" });
    expect(result.current.formData).toEqual({ id: 9, name: "Saved", code: "SAV" });
  });

  it("setFetched loads a record, but not again the version the form holds, edits and all", () => {
    type Versioned = { uuid: string; version: number; name: string };
    const { result } = renderHook(() =>
      useFormState<Versioned>(() => ({ uuid: "thc-1", version: 0, name: "" })),
    );
    act(() => result.current.setFetched({ uuid: "thc-1", version: 1, name: "Oncology" }));
    expect(result.current.formData.name).toBe("Oncology");
    act(() => result.current.setValue("name", "Oncology II"));
    act(() => result.current.setFetched({ uuid: "thc-1", version: 1, name: "Oncology" }));
    expect([result.current.formData.name, result.current.unsaved]).toEqual(["Oncology II", true]);
    act(() => result.current.setFetched({ uuid: "thc-1", version: 2, name: "Oncology (theirs)" }));
    expect([result.current.formData.name, result.current.unsaved]).toEqual(["Oncology (theirs)", false]);
  });

  it("setErrors does not mark the form as changed; editing a field clears its own error only", () => {
    const { result } = renderHook(() => useFormState<Category>(() => loaded));
    act(() => result.current.setErrors({ name: "Name is required", code: "Code is required" }));
    expect(result.current.unsaved).toBe(false);
    act(() => result.current.setValue("name", "Neu"));
    expect(result.current.errors).toEqual({ code: "Code is required" });
  });

  it("normalizes on every change (code forced upper case and cut)", () => {
    const normalize = (d: Category) => ({ ...d, code: d.code.toUpperCase().slice(0, 3) });
    const { result } = renderHook(() => useFormState<Category>(() => loaded, { normalize }));
    act(() => result.current.setValue("code", "abcd"));
    expect(result.current.formData.code).toBe("ABC");
  });

  it("routes patient values and replaces parts, marking the form changed", () => {
    const { result } = renderHook(() => useFormState(patient));
    act(() => result.current.setValue("firstName", "Anna"));
    expect(result.current.formData.patientDetail.firstName).toBe("Anna");
    act(() => result.current.setValue("city", "Budapest"));
    expect(result.current.formData.address.city).toBe("Budapest");
    act(() => result.current.setValue("status", 2));
    expect(result.current.formData.status).toBe(2);
    act(() => result.current.reset());
    act(() => result.current.setPart("contacts", [{ contactType: "EMAIL", value: "a@b.hu", notes: "" }]));
    expect(result.current.formData.contacts).toHaveLength(1);
    expect(result.current.unsaved).toBe(true);
    act(() => result.current.setUnsaved(false));
    expect(result.current.unsaved).toBe(false);
  });

  it("setFormData replaces the form data and compares with the original", () => {
    const reduce = formReducer<Category>();
    const start = { originalData: loaded, formData: loaded, errors: {}, unsaved: false };
    expect(reduce(start, { type: "setFormData", data: { ...loaded } }).unsaved).toBe(false);
    expect(reduce(start, { type: "setFormData", data: { ...loaded, code: "X" } }).unsaved).toBe(true);
  });

  it("clears the errors of whatever a whole-form change alters, keeping the rest (setFormData, setPart)", () => {
    type Visit = { patientId: number | null; studyId: number | null; visitId: number | null };
    const reduce = formReducer<Visit>();
    const empty: Visit = { patientId: null, studyId: null, visitId: null };
    const required = {
      patientId: "Patient is required",
      studyId: "Study is required",
      visitId: "Visit is required",
    };
    let state: FormState<Visit> = { originalData: empty, formData: empty, errors: required, unsaved: false };
    // Choosing a patient resets the form for that patient: only the patient's error goes.
    state = reduce(state, { type: "setFormData", data: { ...empty, patientId: 4 } });
    expect(state.errors).toEqual({ studyId: "Study is required", visitId: "Visit is required" });
    state = reduce(state, { type: "setFormData", data: { patientId: 4, studyId: 2, visitId: null } });
    state = reduce(state, { type: "setFormData", data: { patientId: 4, studyId: 2, visitId: 9 } });
    expect(state.errors).toEqual({});
  });

  it("a replaced list part clears the errors inside it", () => {
    const { result } = renderHook(() => useFormState(patient));
    act(() =>
      result.current.setErrors({
        "contacts.0.value": "Phone is not valid",
        "patientDetail.firstName": "First name is required",
      }),
    );
    act(() => result.current.setPart("contacts", [{ contactType: "PHONE", value: "+36 1", notes: "" }]));
    expect(result.current.errors).toEqual({ "patientDetail.firstName": "First name is required" });
  });
});
