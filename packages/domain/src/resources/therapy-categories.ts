import { z } from "zod";
import { recordMeta, text } from "../schema";
import { maxLength, minLength, required, validator } from "../validation";
import { withCode } from "./fields";

export type TherapyCategory = { id: number; uuid: string; version: number; name: string; code: string };

export const therapyCategoryCodeMaxLength = 3;
export const therapyCategoryCodeMinLength = 2;

export const therapyCategorySchema = z.strictObject({
  ...recordMeta,
  name: text(),
  code: text(therapyCategoryCodeMaxLength), // a longer code is refused, not stored cut (issue 46)
});
export type TherapyCategoryInput = z.infer<typeof therapyCategorySchema>;

export const validateTherapyCategory = validator<Partial<TherapyCategoryInput>>(
  required("name", "Name is required"),
  minLength("name", 3, "Name must be at least 3 characters long"),
  maxLength("name", 50, "Name must be at most 50 characters long"),
  required("code", "Code is required"),
  // The hint says "2 or 3 characters", as partners and therapy areas are checked (issue 15).
  minLength("code", therapyCategoryCodeMinLength, "Code must be at least 2 characters long"),
);

/** Code is forced upper case and cut to 3 characters (spec §5). */
export function normalizeTherapyCategory<T extends Partial<TherapyCategoryInput>>(data: T): T {
  return withCode(data, therapyCategoryCodeMaxLength);
}

export const emptyTherapyCategory = (): Partial<TherapyCategoryInput> => ({ name: "", code: "" });
