import { successToastMs, toastLimit, toastRemoveDelayMs } from "@trialdesk/domain";
import { useSyncExternalStore } from "react";

/**
 * The toast store of spec §4: at most one toast is visible; variants default, success and
 * destructive; success toasts last 2000 ms, others stay until dismissed (removed 1,000,000 ms later).
 * Call `toast(...)` from anywhere; the frame renders `useToasts()`.
 */
export type ToastVariant = "default" | "success" | "destructive";
export type Toast = { id: number; title: string; description?: string; variant: ToastVariant; open: boolean };

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

export function toast(input: { title: string; description?: string; variant?: ToastVariant }): number {
  const id = nextId++;
  const variant = input.variant ?? "default";
  toasts = [{ id, title: input.title, description: input.description, variant, open: true }, ...toasts].slice(
    0,
    toastLimit,
  );
  emit();
  if (variant === "success") setTimeout(() => dismissToast(id), successToastMs);
  return id;
}

export function dismissToast(id: number) {
  toasts = toasts.map((t) => (t.id === id ? { ...t, open: false } : t));
  emit();
  setTimeout(() => {
    toasts = toasts.filter((t) => t.id !== id);
    emit();
  }, toastRemoveDelayMs);
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
  );
}

/** Drops every toast at once (tests start from an empty toast area). */
export function clearToasts() {
  toasts = [];
  emit();
}
