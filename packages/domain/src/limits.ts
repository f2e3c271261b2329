/** Business constants and limits of spec §9 that are not tied to one resource. */
export const textInputMaxLength = 50;
export const passwordInputMaxLength = 50;
export const passwordMinLength = 8;
export const searchDebounceMs = 300;
export const loadingOverlayDelayMs = 250;
export const toastLimit = 1;
export const toastRemoveDelayMs = 1_000_000;
export const successToastMs = 2000;
export const desktopMinWidth = 1024;
export const versionLabel = "2025.1.0";

/** The largest page a list call may ask for; lookups need up to 1000. */
export const maxPageSize = 1000;

/** Upper-cases and cuts a code, as the partner, site and therapy code inputs do (spec §5). */
export function toCode(value: string, max: number): string {
  return value.toUpperCase().slice(0, max);
}
