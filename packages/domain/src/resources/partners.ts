import { z } from "zod";
import { flag, recordMeta, text } from "../schema";
import { minLength, required, validator } from "../validation";
import { withCode } from "./fields";

export type Partner = {
  id: number;
  uuid: string;
  version: number;
  name: string;
  code: string;
  cro: boolean;
  sponsor: boolean;
};

export const partnerCodeMaxLength = 3;

export const partnerSchema = z.strictObject({
  ...recordMeta,
  name: text(),
  // At most 3 on the wire too: the normaliser cuts what is typed, but a longer code sent is refused,
  // never stored cut (issue 46).
  code: text(partnerCodeMaxLength),
  cro: flag().optional(),
  sponsor: flag().optional(),
});
export type PartnerInput = z.infer<typeof partnerSchema>;

/** Uniqueness and the 2-character minimum are the server's (spec §5). */
export const validatePartner = validator<Partial<PartnerInput>>(
  required("name", "Name is required"),
  required("code", "Code is required"),
);

export const partnerCodeMinLength = 2;

/**
 * What the server checks before saving: the form's rules and the 2-character code minimum of the
 * hint ("2 or 3 characters, unique"); uniqueness is the database's unique index.
 */
export const validatePartnerForSave = validator<Partial<PartnerInput>>(
  validatePartner,
  minLength("code", partnerCodeMinLength, "Code must be at least 2 characters long"),
);

/** Code is forced upper case and cut to 3 characters (spec §5). */
export function normalizePartner<T extends Partial<PartnerInput>>(data: T): T {
  return withCode(data, partnerCodeMaxLength);
}

export const emptyPartner = (): Partial<PartnerInput> => ({ name: "", code: "", cro: false, sponsor: false });

/** Lookup rows of GET partners (page 1, size 250): the CRO and sponsor selects filter them. */
export type PartnerLookupRow = Pick<Partner, "id" | "uuid" | "name" | "code" | "sponsor" | "cro">;
