import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { useUnsavedChangesGuard } from "../screens/useUnsavedChangesGuard";
import { activityChannelName, formatClock, formatCountdown, isSessionExpiry } from "./countdown";
import { demoConfig, fakeServer, renderApp, signedInHandlers } from "./testing/fake-server";

describe("formatCountdown", () => {
  it("shows mm:ss", () => {
    expect(formatCountdown(900)).toBe("15:00");
    expect(formatCountdown(65)).toBe("01:05");
    expect(formatCountdown(9)).toBe("00:09");
    expect(formatCountdown(0)).toBe("00:00");
    expect(formatCountdown(-3)).toBe("00:00");
  });
  it("keeps counting minutes past an hour", () => {
    expect(formatCountdown(3600)).toBe("60:00");
  });
});

describe("formatClock", () => {
  it("shows the time as HH:mm", () => {
    expect(formatClock(new Date(2025, 0, 2, 7, 5, 59))).toBe("07:05");
    expect(formatClock(new Date(2025, 0, 2, 23, 45))).toBe("23:45");
  });
});

/** A form with unsaved changes, as far as the unsaved-changes guard knows. */
function UnsavedForm() {
  return useUnsavedChangesGuard(true).dialog;
}

function startWithTimeout(seconds: number, path = "/", extra: Parameters<typeof renderApp>[1] = {}) {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.setSystemTime(new Date(2025, 5, 1, 9, 30, 0));
  fakeServer(
    signedInHandlers({
      "GET /config.json": () => ({ data: { ...demoConfig, inactivityTimeoutSeconds: seconds } }),
    }),
  );
  return renderApp(path, extra);
}
const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** A 5-second session left alone for 4 seconds: the timer shows its last second. */
async function oneSecondLeft() {
  const { router } = startWithTimeout(5);
  const timer = await screen.findByRole("timer");
  await tick(4000);
  expect(timer).toHaveTextContent("00:01");
  return { router, timer };
}

describe("inactivity countdown (spec §4)", () => {
  it("ticks every second and navigates to /logout at zero", async () => {
    const { router } = startWithTimeout(3);
    const timer = await screen.findByRole("timer");
    expect(timer).toHaveTextContent("00:03");
    expect(screen.getByText("09:30")).toBeInTheDocument();
    await tick(1000);
    expect(timer).toHaveTextContent("00:02");
    await tick(1000);
    expect(timer).toHaveTextContent("00:01");
    expect(router.state.location.pathname).toBe("/");
    await tick(1000);
    expect(router.state.location.pathname).toBe("/logout");
    expect(isSessionExpiry(router.state.location)).toBe(true);
    expect(await screen.findByText("You have been logged out!")).toBeInTheDocument();
    // It says why (issue 15).
    expect(screen.getByText("Your session ended because of inactivity.")).toBeInTheDocument();
  });

  it("warns one minute before the end; Stay signed in starts the countdown again", async () => {
    const { router } = startWithTimeout(120);
    const timer = await screen.findByRole("timer");
    await tick(59_000);
    expect(timer).toHaveTextContent("01:01");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    await tick(1000);
    expect(screen.getByRole("alert")).toHaveTextContent(
      "You will be signed out in less than a minute because of inactivity.",
    );
    const warning = screen.getByRole("region", { name: "Inactivity warning" });
    expect(warning).toHaveTextContent("01:00");
    expect(warning).not.toHaveTextContent("unsaved changes");
    fireEvent.click(screen.getByRole("button", { name: "Stay signed in" }));
    expect(timer).toHaveTextContent("02:00");
    expect(screen.queryByRole("region", { name: "Inactivity warning" })).not.toBeInTheDocument();
    await tick(60_000);
    expect(router.state.location.pathname).toBe("/");
  });

  it("warns that a form's unsaved changes would be lost", async () => {
    startWithTimeout(120, "/form", { resourceRoutes: [{ path: "/form", element: <UnsavedForm /> }] });
    await screen.findByRole("timer");
    await tick(60_000);
    expect(screen.getByRole("alert")).toHaveTextContent(
      "You will be signed out in less than a minute because of inactivity. Your unsaved changes on this page will be lost.",
    );
  });

  it("a logout the user chose does not speak of inactivity", async () => {
    fakeServer(signedInHandlers());
    const { router } = renderApp("/");
    await screen.findByRole("timer");
    await act(() => router.navigate("/logout"));
    expect(await screen.findByText("You have been logged out!")).toBeInTheDocument();
    expect(screen.queryByText("Your session ended because of inactivity.")).not.toBeInTheDocument();
  });

  it("starts again on every route change", async () => {
    const { router } = startWithTimeout(5);
    const timer = await screen.findByRole("timer");
    await tick(3000);
    expect(timer).toHaveTextContent("00:02");
    await act(() => router.navigate("/therapy-categories"));
    expect(screen.getByRole("timer")).toHaveTextContent("00:05");
    await tick(4000);
    expect(router.state.location.pathname).toBe("/therapy-categories");
  });

  it("starts again on typing and pointing, so a long form is not thrown out", async () => {
    const { router, timer } = await oneSecondLeft();
    fireEvent.keyDown(document.body, { key: "a" });
    expect(timer).toHaveTextContent("00:05");
    await tick(4000);
    fireEvent.pointerDown(document.body);
    await tick(4000);
    expect(router.state.location.pathname).toBe("/");
    await tick(1000);
    expect(router.state.location.pathname).toBe("/logout");
  });

  it("starts again when the user is active in another tab of the app", async () => {
    const { router, timer } = await oneSecondLeft();
    const otherTab = new BroadcastChannel(activityChannelName);
    otherTab.postMessage("activity");
    await vi.waitFor(() => expect(timer).toHaveTextContent("00:05"));
    otherTab.close();
    await tick(4000);
    expect(router.state.location.pathname).toBe("/");
  });
});
