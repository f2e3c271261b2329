import { useEffect, useRef } from "react";
import { useBlocker } from "react-router";
import { holdUnsavedChanges, isSessionExpiry } from "../app/countdown";
import { ConfirmDialog } from "../ui/dialog";

/**
 * The unsaved-changes guard of spec §2.3, shared by the generic form and the studyplan editor: while
 * `unsaved`, in-app navigation asks first (dialog "Unsaved Changes") and the browser warns on
 * leaving. An expired session still ends (the countdown's navigation to /logout passes). `release`
 * lets a save move on at once, before the cleared flag has rendered.
 */
export function useUnsavedChangesGuard(unsaved: boolean) {
  const pending = useRef(unsaved);
  pending.current = unsaved;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      pending.current && currentLocation.pathname !== nextLocation.pathname && !isSessionExpiry(nextLocation),
  );
  // The inactivity warning says that these changes would be lost.
  useEffect(() => (unsaved ? holdUnsavedChanges() : undefined), [unsaved]);
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [unsaved]);

  const dialog = (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      title="Unsaved Changes"
      text="You have unsaved changes. Are you sure you want to leave without saving?"
      confirmLabel="Yes, Leave"
      cancelLabel="Stay on Page"
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    />
  );
  return {
    dialog,
    release: () => {
      pending.current = false;
    },
  };
}
