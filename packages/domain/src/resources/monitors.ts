import { z } from "zod";
import { accountRules } from "../rules/passwords";
import { flag, recordMeta, text } from "../schema";
import { validator } from "../validation";
import { passwordField, trimEmail } from "./fields";
import { emailMaxLength } from "./users";

/** A monitor as the API returns it: never a password or its hash. */
export type Monitor = {
  id: number;
  uuid: string;
  version: number;
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  hasPassword: boolean;
};

export const monitorSchema = z.strictObject({
  ...recordMeta,
  email: text(emailMaxLength),
  firstName: text(),
  lastName: text(),
  password: passwordField(),
  password2: passwordField(),
  isActive: flag().optional(),
  // Read-only view field.
  hasPassword: z.boolean().nullish(),
});
export type MonitorInput = z.infer<typeof monitorSchema>;

/** The same rules as users for names, e-mail and password (spec §5). */
export const validateMonitor = validator<Partial<MonitorInput>>(
  ...accountRules<Partial<MonitorInput>>("firstName", "lastName"),
);

/** E-mail trimmed, as for users. */
export function normalizeMonitor<T extends Partial<MonitorInput>>(data: T): T {
  return trimEmail(data);
}

export const emptyMonitor = (): Partial<MonitorInput> => ({
  email: "",
  firstName: "",
  lastName: "",
  password: "",
  password2: "",
  isActive: true,
});
