import { type ResourceName, uuidPrefixes } from "./registry";

const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function newUuid(resource?: ResourceName): string {
  return (resource ? uuidPrefixes[resource] : "") + crypto.randomUUID();
}

/** True when `value` is a v4 uuid carrying exactly the prefix of `resource`. */
export function isUuidOf(resource: ResourceName, value: string): boolean {
  const prefix = uuidPrefixes[resource];
  return value.startsWith(prefix) && v4.test(value.slice(prefix.length));
}
