import { useLocation, useNavigate } from "react-router";
import { useSession } from "../app/session";

/**
 * Back, as the generic screens use it: one step back in history, or — when the screen was opened
 * directly and there is nowhere to go back to — to `fallback`.
 */
export function useGoBack(fallback: string): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    // history.state.idx is the browser router's position; the first entry has nowhere to go back to.
    const idx = (window.history.state as { idx?: number } | null)?.idx;
    const canGoBack = idx !== undefined ? idx > 0 : location.key !== "default";
    if (canGoBack) navigate(-1);
    else navigate(fallback);
  };
}

/**
 * Who may change a resource's records: any signed-in user, or administrators only (reference data
 * and administration, DESIGN §4). The server enforces the same; the screens only hide what would fail.
 */
export type WriteAccess = "user" | "admin";

export function useCanWrite(access: WriteAccess = "user"): boolean {
  const { user } = useSession();
  return !!user && (access === "user" || user.isAdmin);
}
