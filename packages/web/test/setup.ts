import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterAll, afterEach, vi } from "vitest";
import { clearToasts } from "../src/app/toast";

// jsdom lacks these; cmdk and Radix call them.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= () => {};

/**
 * The test files share one jsdom per worker (isolate: false in vite.config.ts: a fresh jsdom and
 * fresh imports for each file cost two thirds of the run). So each test leaves the page as it found
 * it, and each file gets the app's own modules fresh (their stores: toasts, config, session), as if
 * isolated; only jsdom and the libraries are shared.
 */
afterEach(() => {
  cleanup();
  // A success toast lasts 2 s: the next test would find it.
  clearToasts();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => {
  vi.resetModules();
});
