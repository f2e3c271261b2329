import { X } from "lucide-react";
import { dismissToast, type ToastVariant, useToasts } from "./toast";

const variantClass: Record<ToastVariant, string> = {
  default: "border-gray-200 bg-white text-gray-900",
  success: "border-green-200 bg-green-50 text-green-900",
  destructive: "border-red-700 bg-red-700 text-white",
};

/**
 * The toast area of spec §4 (at most one visible; the store enforces the limit). Errors are
 * announced assertively (role alert), the rest politely (role status).
 */
export function Toaster() {
  const toasts = useToasts().filter((t) => t.open);
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed right-4 bottom-4 z-[100] w-96 max-w-[calc(100vw-2rem)]"
    >
      {toasts.map((t) => (
        <div
          key={t.id}
          role={t.variant === "destructive" ? "alert" : "status"}
          data-variant={t.variant}
          className={`pointer-events-auto flex items-start gap-3 rounded-md border p-3 shadow-lg ${variantClass[t.variant]}`}
        >
          <div className="flex-1">
            <p className="text-sm font-semibold">{t.title}</p>
            {t.description && <p className="mt-0.5 text-sm opacity-90">{t.description}</p>}
          </div>
          <button
            type="button"
            aria-label="Close"
            onClick={() => dismissToast(t.id)}
            className="rounded p-0.5 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-current"
          >
            <X aria-hidden className="size-4" />
          </button>
        </div>
      ))}
    </section>
  );
}
