import { z } from "zod";
import { idRef, recordMeta, text } from "../schema";
import { required, validator } from "../validation";
import { withCode } from "./fields";

export type TherapyArea = {
  id: number;
  uuid: string;
  version: number;
  name: string;
  code: string;
  therapyCategoryId: number;
  therapyCategoryName: string;
};

export const therapyAreaCodeMaxLength = 3;

export const therapyAreaSchema = z.strictObject({
  ...recordMeta,
  name: text(),
  code: text(therapyAreaCodeMaxLength), // a longer code is refused, not stored cut (issue 46)
  therapyCategoryId: idRef().nullish(),
  // Read-only view field; accepted so a loaded record can be sent back whole.
  therapyCategoryName: z.string().nullish(),
});
export type TherapyAreaInput = z.infer<typeof therapyAreaSchema>;

export const validateTherapyArea = validator<Partial<TherapyAreaInput>>(
  required("name", "Name is required"),
  required("code", "Code is required"),
  required("therapyCategoryId", "Therapy Category is required"),
);

/** Code is upper-cased and cut to 3 characters (spec §5). */
export function normalizeTherapyArea<T extends Partial<TherapyAreaInput>>(data: T): T {
  return withCode(data, therapyAreaCodeMaxLength);
}

export const emptyTherapyArea = (): Partial<TherapyAreaInput> => ({
  name: "",
  code: "",
  therapyCategoryId: null,
});

/** Lookup rows of spec §3. */
export type TherapyAreaLookupRow = Pick<TherapyArea, "id" | "uuid" | "name" | "code" | "therapyCategoryName">;
