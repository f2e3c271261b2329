import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { MenuItem, SignedInUser } from "@trialdesk/domain";
import { BadgeCheck, ListTodo, MessageCircleQuestion, TriangleAlert } from "lucide-react";
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
    expect(screen.getByRole("link", { name: "— Open queries" })).toBeInTheDocument();
    expect(server.callsTo("GET", "/api/worklist")).toEqual([]);
    expect(server.callsTo("GET", "/api/protocol-deviations")).toEqual([]);
    expect(server.callsTo("GET", "/api/queries")).toEqual([]);
  });
});

describe("home without an active site (issue 46)", () => {
  it("tells staff to choose their site and where, and says nothing once one is chosen", async () => {
    fakeServer(signedInHandlers());
    renderApp("/");
    const chooseSite = /^Choose your site first: open “No site selected” at the top right of the page/;
    expect(await screen.findByText(chooseSite, {}, { timeout: 5000 })).toBeInTheDocument();
    // The button the sentence names is there.
    expect(screen.getByRole("button", { name: /No site selected/ })).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: /No site selected/ }));
    await userEvent.click(await screen.findByRole("button", { name: new RegExp(demoSites[0].shortName) }));
    await waitFor(() => expect(screen.queryByText(chooseSite)).not.toBeInTheDocument());
  });

  it("tells someone with no site given to ask an administrator", async () => {
    fakeServer(signedInHandlers({ "GET /api/me/sites": () => ({ data: { items: [] } }) }));
    renderApp("/");
    expect(
      await screen.findByText(
        /^No site is given to you yet: an administrator adds your sites/,
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/^Choose your site first/)).not.toBeInTheDocument();
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

const total = (n: number) => ({ data: { items: [], pagination: { page: 1, pageSize: 1, total: n } } });

describe("home Open queries tile (issue 44)", () => {
  it("counts the active site's open queries and leads to their list filtered to Open", async () => {
    localStorage.setItem(activeSiteStorageKey(demoUser.uuid), demoSites[1].uuid);
    const server = fakeServer(
      signedInHandlers({
        "GET /api/worklist": () => ({ data: worklistAnswer() }),
        "GET /api/protocol-deviations": () => total(0),
        "GET /api/queries": () => total(4),
      }),
    );
    renderApp("/");
    const tiles = await screen.findByRole("list", { name: "At the active site" });
    expect(
      await within(tiles).findByRole("link", { name: "4 Open queries" }, { timeout: 5000 }),
    ).toHaveAttribute("href", "/queries?status=OPEN");
    const [call] = server.callsTo("GET", "/api/queries");
    const params = new URL(call.url).searchParams;
    expect(params.get("siteId")).toBe(String(demoSites[1].id));
    expect(params.get("status")).toBe("OPEN");
    expect(params.get("pagesize")).toBe("1");
  });
});

/** The demo study's monitor (issue 44): no sites, four menu entries. */
const monitor: SignedInUser = {
  id: 5,
  uuid: "mon-00000000-0000-4000-8000-000000000005",
  email: "monitor@example.com",
  profile: { firstName: "Mona", lastName: "Monitor" },
  isAdmin: false,
  siteIds: [],
  kind: "monitor",
};
const monitorMenu: MenuItem[] = [
  { key: "home", label: "Home", route: "/", icon: "house", iconVariant: null, children: [] },
  {
    key: "studies",
    label: "Studies",
    route: "/studies",
    icon: "flask-conical",
    iconVariant: null,
    children: [],
  },
  {
    key: "source-verification",
    label: "Source verification",
    route: "/source-verification",
    icon: "badge-check",
    iconVariant: null,
    children: [],
  },
  {
    key: "queries",
    label: "Queries",
    route: "/queries",
    icon: "message-circle-question",
    iconVariant: null,
    children: [],
  },
];

function monitorServer() {
  const counts: Record<string, number> = { PENDING: 5, REOPENED: 2, VERIFIED: 40, ANSWERED: 3, OPEN: 6 };
  return fakeServer(
    signedInHandlers({
      "GET /api/me": () => ({ data: monitor }),
      "GET /api/me/menu": () => ({ data: monitorMenu }),
      "GET /api/me/sites": () => ({ data: { items: [] } }),
      "GET /api/source-verification": (call) => total(counts[call.search.get("sdvStatus") ?? ""] ?? 47),
      "GET /api/queries": (call) => total(counts[call.search.get("status") ?? ""] ?? 9),
    }),
  );
}

describe("a monitor's home (issue 44)", () => {
  it("shows what there is to verify, the queries answered and open, and the studies; no site", async () => {
    const server = monitorServer();
    renderApp("/");
    const work = await screen.findByRole("list", { name: "Your work" }, { timeout: 5000 });
    // Pending and reopened: 5 + 2.
    expect(
      await within(work).findByRole("link", { name: "7 Source verification visits to verify" }),
    ).toHaveAttribute("href", "/source-verification");
    const queries = await within(work).findByRole("link", { name: "3 answered 6 open Queries" });
    expect(queries).toHaveAttribute("href", "/queries");
    expect(within(work).getByRole("link", { name: "Studies" })).toHaveAttribute("href", "/studies");
    const asked = server
      .callsTo("GET", "/api/source-verification")
      .map((c) => Object.fromEntries(new URL(c.url).searchParams));
    expect(asked).toContainEqual({ sdvStatus: "PENDING", page: "1", pagesize: "1" });
    expect(asked).toContainEqual({ sdvStatus: "REOPENED", page: "1", pagesize: "1" });
    for (const call of server.callsTo("GET", "/api/queries"))
      expect(new URL(call.url).searchParams.has("siteId")).toBe(false);
    // Staff's tiles and every word of a site are not theirs.
    expect(screen.queryByRole("list", { name: "At the active site" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "New visit" })).not.toBeInTheDocument();
    expect(screen.queryByText(/site/i)).not.toBeInTheDocument();
    expect(screen.queryByTitle("Active site")).not.toBeInTheDocument();
    expect(server.callsTo("GET", "/api/worklist")).toEqual([]);
  });

  it("has the monitor's menu of four, each with its own icon", async () => {
    monitorServer();
    renderApp("/");
    const nav = await screen.findByRole("navigation", { name: "Main menu" });
    await within(nav).findByRole("link", { name: "Queries" });
    expect(
      within(nav)
        .getAllByRole("link")
        .map((link) => [link.textContent, link.getAttribute("href")]),
    ).toEqual([
      ["Home", "/"],
      ["Studies", "/studies"],
      ["Source verification", "/source-verification"],
      ["Queries", "/queries"],
    ]);
    expect(menuIcon("badge-check")).toBe(BadgeCheck);
    expect(menuIcon("message-circle-question")).toBe(MessageCircleQuestion);
    // The frame asks for no site either.
    await waitFor(() => expect(screen.queryByTitle("Active site")).not.toBeInTheDocument());
  });
});
