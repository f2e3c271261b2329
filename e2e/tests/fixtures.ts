import { test as base, expect, type Page } from "@playwright/test";

export const admin = { email: "admin@example.com", password: "admin1234" };

/** Signs in through the API (the refresh cookie lands in this page's context), then opens `path`. */
export async function signIn(page: Page, path = "/") {
  const response = await page.request.post("/api/auth", {
    data: { username: admin.email, password: admin.password },
  });
  expect(response.ok()).toBeTruthy();
  await page.goto(path);
}

/** A short unique suffix, so tests sharing one database never collide. */
export function unique(): string {
  return Math.random().toString(36).slice(2, 7);
}

export const test = base;
export { expect, type Page };
