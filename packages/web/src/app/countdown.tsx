import { Clock } from "lucide-react";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useLocation, useNavigate } from "react-router";
import { Button } from "../ui/button";

/** mm:ss of spec §9 (minutes keep counting past 59 for long timeouts). */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}

export function formatClock(date: Date): string {
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

/**
 * The navigation to /logout at zero carries this state, so an unsaved-changes guard can let it pass:
 * an expired session must end even with a half-typed form on screen.
 */
export const sessionExpiredState = { sessionExpired: true } as const;
export function isSessionExpiry(location: { state?: unknown }): boolean {
  return (location.state as { sessionExpired?: boolean } | null)?.sessionExpired === true;
}

/**
 * How many forms on screen hold unsaved changes (each unsaved-changes guard counts itself), so the
 * inactivity warning can say that they would be lost (issue 15: never lost silently).
 */
let unsavedForms = 0;
const unsavedListeners = new Set<() => void>();
const tellUnsaved = () => {
  for (const listener of unsavedListeners) listener();
};
/** Counts a form with unsaved changes until the returned function is called. */
export function holdUnsavedChanges(): () => void {
  unsavedForms += 1;
  tellUnsaved();
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    unsavedForms -= 1;
    tellUnsaved();
  };
}
const subscribeUnsaved = (listener: () => void) => {
  unsavedListeners.add(listener);
  return () => unsavedListeners.delete(listener);
};
const useUnsavedChangesOnScreen = () => useSyncExternalStore(subscribeUnsaved, () => unsavedForms > 0);

/** Keys and pointers count as activity too, so someone typing a long form is not signed out. */
const activityEvents = ["keydown", "pointerdown"] as const;
export const activityChannelName = "trialdesk-activity";

/**
 * The inactivity countdown of spec §4: ticks every second, restarts on every route change and on
 * user input, and at zero navigates to /logout. It counts against a deadline, not by decrementing,
 * so a throttled background tab still ends on time.
 */
export function useInactivityCountdown(timeoutSeconds: number): {
  remaining: number;
  now: Date;
  restart: () => void;
} {
  const location = useLocation();
  const navigate = useNavigate();
  const [remaining, setRemaining] = useState(timeoutSeconds);
  const [now, setNow] = useState(() => new Date());
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  // Each restart also restarts the 1 s ticks, so they fall on whole seconds of the countdown.
  const restart = useCallback(() => {
    const deadline = Date.now() + timeoutSeconds * 1000;
    setRemaining(timeoutSeconds);
    setNow(new Date());
    clearInterval(timer.current);
    timer.current = setInterval(() => {
      const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      setRemaining(left);
      setNow(new Date());
      if (left === 0) {
        clearInterval(timer.current);
        navigate("/logout", { state: sessionExpiredState });
      }
    }, 1000);
  }, [timeoutSeconds, navigate]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: every navigation (location.key) is activity
  useEffect(restart, [location.key, restart]);

  useEffect(() => {
    // Activity in any tab of the app counts: working in one tab must not let another tab's
    // countdown end the shared session.
    const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(activityChannelName) : null;
    if (channel) channel.onmessage = restart;
    let lastTold = 0;
    const onActivity = () => {
      restart();
      if (channel && Date.now() - lastTold >= 1000) {
        lastTold = Date.now();
        channel.postMessage("activity");
      }
    };
    for (const event of activityEvents) window.addEventListener(event, onActivity, { passive: true });
    return () => {
      for (const event of activityEvents) window.removeEventListener(event, onActivity);
      channel?.close();
      clearInterval(timer.current);
    };
  }, [restart]);

  return { remaining, now, restart };
}

/** The warning comes this long before the countdown ends (issue 15), when the timeout is longer. */
export const inactivityWarningSeconds = 60;

/** The top bar's clock: the current time and the inactivity countdown. */
export function ClockCountdown({ timeoutSeconds }: { timeoutSeconds: number }) {
  const { remaining, now, restart } = useInactivityCountdown(timeoutSeconds);
  const warn =
    timeoutSeconds > inactivityWarningSeconds && remaining <= inactivityWarningSeconds && remaining > 0;
  return (
    <>
      {warn && <InactivityWarning remaining={remaining} onStay={restart} />}
      {clock(now, remaining)}
    </>
  );
}

/**
 * The last minute before the inactivity logout: announced once (the ticking time is not re-read every
 * second) with Stay signed in, which starts the countdown again. Not modal: any key or click counts
 * as activity and ends it too.
 */
function InactivityWarning({ remaining, onStay }: { remaining: number; onStay: () => void }) {
  const unsaved = useUnsavedChangesOnScreen();
  return (
    <section
      aria-label="Inactivity warning"
      className="fixed top-14 left-1/2 z-50 flex w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 shadow-lg"
    >
      <p>
        <span role="alert">
          You will be signed out in less than a minute because of inactivity.
          {unsaved && " Your unsaved changes on this page will be lost."}
        </span>{" "}
        <span aria-hidden="true" className="font-semibold tabular-nums">
          {formatCountdown(remaining)}
        </span>
      </p>
      <Button onClick={onStay}>Stay signed in</Button>
    </section>
  );
}

function clock(now: Date, remaining: number) {
  return (
    <div className="flex shrink-0 items-center gap-1.5 whitespace-nowrap text-sm tabular-nums text-gray-700 sm:gap-2">
      <Clock aria-hidden className="hidden size-4 text-gray-500 sm:block" />
      <time title="Current time" dateTime={now.toISOString()}>
        {formatClock(now)}
      </time>
      <span
        role="timer"
        aria-label="Session expires in"
        title="Session expires after this much inactivity"
        className={`rounded px-1.5 py-0.5 ${remaining <= 60 ? "bg-red-50 font-semibold text-red-700" : "bg-gray-100"}`}
      >
        {formatCountdown(remaining)}
      </span>
    </div>
  );
}
