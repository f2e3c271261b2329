import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { menuIcon } from "./menu";
import { demoConfig, fakeServer, renderApp, signedInHandlers } from "./testing/fake-server";

const anonymous = { "POST /api/token": () => ({ status: 401, error: "Not signed in" }) };

/** jsdom has no matchMedia: pretend a window of the given width. */
function windowWidth(width: number) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: width >= Number(/min-width:\s*(\d+)px/.exec(query)?.[1] ?? 0),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

describe("home (spec §1)", () => {
  it("offers the four tiles, Visit summary pointing at the configured study", async () => {
    fakeServer(signedInHandlers());
    renderApp("/index.html");
    expect(await screen.findByRole("link", { name: "New visit" })).toHaveAttribute(
      "href",
      "/patient-visits/create",
    );
    expect(screen.getByRole("link", { name: "Add patient to study" })).toHaveAttribute(
      "href",
      "/study-patients/create",
    );
    expect(screen.getByRole("link", { name: "New Patient" })).toHaveAttribute("href", "/patients/create");
    expect(screen.getByRole("link", { name: "Visit summary" })).toHaveAttribute(
      "href",
      `/visit-summary/${demoConfig.summaryStudyUuid}`,
    );
  });
});

describe("frame", () => {
  it("offers Skip to content as the first stop of the keyboard, moving the focus to the screen (issue 46)", async () => {
    fakeServer(signedInHandlers());
    renderApp("/therapy-categories");
    await screen.findByRole("heading", { name: "Therapy categories list" });
    (document.activeElement as HTMLElement | null)?.blur();
    await userEvent.tab();
    const skip = screen.getByRole("link", { name: "Skip to content" });
    expect(skip).toHaveFocus();
    // The browser follows the link to the screen, which can take the focus (jsdom does not follow it).
    expect(skip).toHaveAttribute("href", "#main-content");
    expect(screen.getByRole("main")).toHaveAttribute("id", "main-content");
    expect(screen.getByRole("main")).toHaveAttribute("tabindex", "-1");
  });

  it("shows the server's menu with groups, links and the active entry, and the version label", async () => {
    fakeServer(signedInHandlers());
    renderApp("/therapy-categories");
    const nav = await screen.findByRole("navigation", { name: "Main menu" });
    const link = await within(nav).findByRole("link", { name: "Therapy categories" });
    expect(link).toHaveAttribute("href", "/therapy-categories");
    expect(link).toHaveAttribute("aria-current", "page");
    expect(within(nav).getByRole("link", { name: "Home" })).not.toHaveAttribute("aria-current");
    expect(within(nav).getByRole("list", { name: "Reference data" })).toBeInTheDocument();
    expect(screen.getByText("2025.1.0")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Therapy categories list" })).toBeInTheDocument();
  });

  it("opens the menu on desktop and collapses it below 1024 px behind Toggle menu", async () => {
    const user = userEvent.setup();
    windowWidth(800);
    fakeServer(signedInHandlers());
    renderApp("/");
    const toggle = await screen.findByRole("button", { name: "Toggle menu" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("navigation", { name: "Main menu" })).not.toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const nav = screen.getByRole("navigation", { name: "Main menu" });
    // Following a link on a narrow screen closes the menu again.
    await user.click(await within(nav).findByRole("link", { name: "Therapy categories" }));
    expect(await screen.findByRole("heading", { name: "Therapy categories list" })).toBeInTheDocument();
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  it("is open at desktop width", async () => {
    windowWidth(1280);
    fakeServer(signedInHandlers());
    renderApp("/");
    expect(await screen.findByRole("button", { name: "Toggle menu" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    expect(screen.getByRole("navigation", { name: "Main menu" })).toBeInTheDocument();
  });

  it("shows a not-found page inside the frame for unknown routes", async () => {
    fakeServer(signedInHandlers());
    renderApp("/no/such/page");
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "User menu" })).toBeInTheDocument();
  });

  it("names icons in any case style and falls back for unknown ones", () => {
    expect(menuIcon("flask-conical")).toBe(menuIcon("FlaskConical"));
    expect(menuIcon("flask-conical")).not.toBe(menuIcon("no-such-icon"));
    expect(menuIcon(null)).toBe(menuIcon("no-such-icon"));
  });
});

describe("public detail pages (spec §2.1, §6)", () => {
  it("open bare with a Login link when signed out, without a redirect", async () => {
    fakeServer(signedInHandlers(anonymous));
    const { router } = renderApp("/therapy-categories/tc-1");
    expect(await screen.findByRole("heading", { name: "Therapy category detail" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");
    expect(screen.queryByRole("navigation", { name: "Main menu" })).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/therapy-categories/tc-1");
  });

  it("open inside the frame when signed in", async () => {
    fakeServer(signedInHandlers());
    renderApp("/therapy-categories/tc-1");
    expect(await screen.findByRole("heading", { name: "Therapy category detail" })).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Main menu" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Login" })).not.toBeInTheDocument();
  });
});
