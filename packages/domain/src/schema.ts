import { z } from "zod";
import { textInputMaxLength } from "./limits";

/**
 * Building blocks for the wire schemas of the resources. The schemas check shape and types only
 * (unknown fields are refused); the spec's messages come from each resource's validator.
 */
export const text = (max: number = textInputMaxLength) =>
  z.string({ error: "Must be text" }).max(max, `Must be at most ${max} characters`);

export const optionalText = (max: number = textInputMaxLength) => text(max).nullish();

export const idRef = () => z.number({ error: "Must be a number" }).int().positive();

export const flag = () => z.boolean({ error: "Must be true or false" });

export const isoDate = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Must be a date as YYYY-MM-DD");

/** The fields every saved record carries on the wire. The server owns id and version. */
export const recordMeta = {
  id: z.number().int().nullish(),
  uuid: z.string().max(80).optional(),
  version: z.number().int().nonnegative().optional(),
};
