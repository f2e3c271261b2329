import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { activeSiteStorageKey, siteLabel, useActiveSite } from "./site";
import { demoSites, demoUser, fakeServer, renderApp, signedInHandlers } from "./testing/fake-server";

/** What a screen sees through useActiveSite(). */
function ActiveSiteProbe() {
  const { site } = useActiveSite();
  return <p>Screen site: {site?.code ?? "none"}</p>;
}
const withProbe = {
  resourceRoutes: [{ path: "/patients/create", element: <ActiveSiteProbe /> }],
};

describe("siteLabel", () => {
  it("reads code - shortName, or No site selected", () => {
    expect(siteLabel(demoSites[0])).toBe("BUD - Budapest");
    expect(siteLabel(null)).toBe("No site selected");
  });
});

describe("active-site selector (spec §2.5 Site selector)", () => {
  it("lists the user's sites with code, city and shortName, and keeps the choice per user", async () => {
    const user = userEvent.setup();
    fakeServer(signedInHandlers());
    const first = renderApp("/patients/create", withProbe);
    await user.click(await screen.findByRole("button", { name: "No site selected" }));
    const list = screen.getByRole("list", { name: "Sites" });
    const vienna = within(list).getByRole("button", { name: /VIE/ });
    expect(vienna).toHaveTextContent("VIE");
    expect(vienna).toHaveTextContent("Wien");
    expect(vienna).toHaveTextContent("Vienna");
    await user.click(vienna);
    expect(screen.getByRole("button", { name: "VIE - Vienna" })).toBeInTheDocument();
    expect(screen.getByText("Screen site: VIE")).toBeInTheDocument();
    expect(localStorage.getItem(activeSiteStorageKey(demoUser.uuid))).toBe(demoSites[1].uuid);
    first.unmount();

    // A reload: the same user finds the same site chosen.
    renderApp("/patients/create", withProbe);
    expect(await screen.findByRole("button", { name: "VIE - Vienna" })).toBeInTheDocument();
    expect(screen.getByText("Screen site: VIE")).toBeInTheDocument();
  });

  it("drops a stored site that is no longer among the user's sites", async () => {
    localStorage.setItem(activeSiteStorageKey(demoUser.uuid), "sit-00000000-0000-4000-8000-000000000099");
    fakeServer(signedInHandlers());
    renderApp("/patients/create", withProbe);
    expect(await screen.findByRole("button", { name: "No site selected" })).toBeInTheDocument();
    await vi.waitFor(() => expect(localStorage.getItem(activeSiteStorageKey(demoUser.uuid))).toBeNull());
    expect(screen.getByText("Screen site: none")).toBeInTheDocument();
  });

  it("chooses the only site of a user who has exactly one", async () => {
    fakeServer(signedInHandlers({ "GET /api/me/sites": () => ({ data: { items: [demoSites[1]] } }) }));
    renderApp("/patients/create", withProbe);
    expect(await screen.findByRole("button", { name: "VIE - Vienna" })).toBeInTheDocument();
    expect(screen.getByText("Screen site: VIE")).toBeInTheDocument();
    expect(localStorage.getItem(activeSiteStorageKey(demoUser.uuid))).toBe(demoSites[1].uuid);
  });

  it("does not carry one user's site over to another user", async () => {
    localStorage.setItem(activeSiteStorageKey("usr-someone-else"), demoSites[0].uuid);
    fakeServer(signedInHandlers());
    renderApp("/patients/create", withProbe);
    expect(await screen.findByRole("button", { name: "No site selected" })).toBeInTheDocument();
  });
});
