import { screen } from "@testing-library/react";
import { ListTodo, TriangleAlert } from "lucide-react";
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
    expect(screen.getByRole("link", { name: "— Open deviations" })).toBeInTheDocument();
    expect(server.callsTo("GET", "/api/worklist")).toEqual([]);
    expect(server.callsTo("GET", "/api/protocol-deviations")).toEqual([]);
  });
});

describe("home Open deviations tile (issue 43)", () => {
  it("counts the active site's open deviations and leads to their list filtered to Open", async () => {
    localStorage.setItem(activeSiteStorageKey(demoUser.uuid), demoSites[0].uuid);
    const server = fakeServer(
      signedInHandlers({
        "GET /api/worklist": () => ({ data: worklistAnswer() }),
        "GET /api/protocol-deviations": () => ({
          data: { items: [{ id: 1 }], pagination: { page: 1, pageSize: 1, total: 12 } },
        }),
      }),
    );
    renderApp("/");
    expect(
      await screen.findByRole("link", { name: "12 Open deviations" }, { timeout: 5000 }),
    ).toHaveAttribute("href", "/protocol-deviations?status=OPEN");
    const [call] = server.callsTo("GET", "/api/protocol-deviations");
    const params = new URL(call.url).searchParams;
    expect(params.get("siteId")).toBe(String(demoSites[0].id));
    expect(params.get("status")).toBe("OPEN");
    expect(params.get("pagesize")).toBe("1");
  });
});

describe("menu icon of the Worklist entry", () => {
  it("shows the server's list-todo icon, not the neutral dot", () => {
    expect(menuIcon("list-todo")).toBe(ListTodo);
  });

  it("shows the Deviations entry's triangle-alert icon", () => {
    expect(menuIcon("triangle-alert")).toBe(TriangleAlert);
  });
});
