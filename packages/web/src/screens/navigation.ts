import { mayAccess, mayUse, type ResourceName, resourceRegistry } from "@trialdesk/domain";
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
 * Whether the signed-in user may change records of a resource: the domain's registry says who may
 * write each one (the server checks the same rule), so no screen repeats it. A monitor (issue 44)
 * writes only what the registry gives monitors (queries); screens outside the registry (the
 * worklist) are staff's.
 */
export function useCanWrite(resource: string): boolean {
  const { user } = useSession();
  if (user === null) return false;
  return resource in resourceRegistry
    ? mayUse(resource as ResourceName, "write", user)
    : mayAccess("user", user);
}
