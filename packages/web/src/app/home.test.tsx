import { screen } from "@testing-library/react";
import { ListTodo } from "lucide-react";
import { beforeEach, describe, expect, it } from "vitest";
import { menuIcon } from "./menu";
import { activeSiteStorageKey } from "./site";
import {
  demoSites,
  demoUser,
  fakeServer,
  renderApp,
  signedInHandlers,
  worklistAnswer,
} from "./testing/fake-server";

beforeEach(() => localStorage.clear());

describe("home worklist tiles (issue 12)", () => {
  it("show the active site's Overdue and Due counts and lead to the worklist filtered so", async () => {
    localStorage.setItem(activeSiteStorageKey(demoUser.uuid), demoSites[1].uuid);
    const server = fakeServer(
      signedInHandlers({ "GET /api/worklist": () => ({ data: worklistAnswer({ overdue: 3, due: 5 }) }) }),
    );
    renderApp("/");
    // The counts come after the session, the sites and the worklist call: allow a busy machine time.
    expect(await screen.findByRole("link", { name: "3 Overdue visits" }, { timeout: 5000 })).toHaveAttribute(
      "href",
      "/worklist?state=overdue",
    );
    expect(screen.getByRole("link", { name: "5 Due visits" })).toHaveAttribute("href", "/worklist?state=due");
    // The four tiles of the spec stay.
    for (const name of ["New visit", "Add patient to study", "New Patient", "Visit summary"])
      expect(screen.getByRole("link", { name })).toBeInTheDocument();
    const [call] = server.callsTo("GET", "/api/worklist");
    expect(new URL(call.url).searchParams.get("siteId")).toBe(String(demoSites[1].id));
  });

  it("show no count and ask nothing without an active site", async () => {
    const server = fakeServer(signedInHandlers());
    renderApp("/");
    expect(
      await screen.findByRole("link", { name: "— Overdue visits" }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "— Due visits" })).toBeInTheDocument();
    expect(server.callsTo("GET", "/api/worklist")).toEqual([]);
  });
});

describe("menu icon of the Worklist entry", () => {
  it("shows the server's list-todo icon, not the neutral dot", () => {
    expect(menuIcon("list-todo")).toBe(ListTodo);
  });
});
