import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { MonitorAssignment } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { type Call, fieldRefusal, renderRoutes, saveWhenReady, stubApi } from "../../screens/test-utils";
import { Detail, Form, List } from "./monitor-assignment-screens";

const sites = [
  { id: 1, uuid: "sit-1", code: "BUD", shortName: "Budapest CRC" },
  { id: 2, uuid: "sit-2", code: "VIE", shortName: "Vienna TC" },
  { id: 3, uuid: "sit-3", code: "WAW", shortName: "Warsaw MC" },
];
const monitors = [
  {
    id: 3,
    uuid: "mon-3",
    firstName: "Mona",
    lastName: "Monitor",
    email: "monitor@example.com",
    isActive: true,
  },
  { id: 4, uuid: "mon-4", firstName: "Ivo", lastName: "Idle", email: "ivo@example.com", isActive: false },
];
const studies = [
  { id: 10, uuid: "std-10", workingName: "TD-2025-001_NORMAL", projectId: 20 },
  { id: 11, uuid: "std-11", workingName: "TD-2025-002_EXT", projectId: 21 },
];
// The demo study's project runs at Budapest and Vienna; the other study's at Warsaw.
const projects: Record<string, object> = {
  20: { id: 20, uuid: "prj-20", workingName: "Normal", siteIds: [1, 2] },
  21: { id: 21, uuid: "prj-21", workingName: "Extension", siteIds: [3] },
};

const assignment = (over: Partial<MonitorAssignment>): MonitorAssignment => ({
  id: 1,
  uuid: "mas-1",
  version: 2,
  monitorId: 3,
  studyId: 10,
  siteIds: [],
  accessFrom: "2026-03-01",
  accessTo: "2026-03-31",
  notes: null,
  monitorName: "Mona Monitor",
  studyName: "TD-2025-001_NORMAL",
  current: true,
  ...over,
});
const rows = [
  assignment({}),
  assignment({
    id: 2,
    uuid: "mas-2",
    studyId: 11,
    studyName: "TD-2025-002_EXT",
    siteIds: [1, 2],
    accessFrom: "2025-01-01",
    accessTo: "2025-06-30",
    notes: "Interim monitoring visits",
    current: false,
  }),
];

const page = (items: object[]) => ({ items, pagination: { page: 1, pageSize: 20, total: items.length } });

function server(call: Call) {
  if (call.path === "/api/monitor-assignments" && call.method === "GET") return { data: page(rows) };
  if (call.path === "/api/monitor-assignments" && call.method === "POST")
    return { status: 201, data: { ...(call.body as object), id: 9, version: 1 } };
  if (call.path === "/api/monitor-assignments/mas-2") {
    if (call.method === "PUT") return { data: { ...(call.body as object), version: 3 } };
    return { data: rows[1] };
  }
  if (call.path === "/api/monitors") return { data: page(monitors) };
  if (call.path === "/api/studies") return { data: page(studies) };
  const study = studies.find((s) => call.path === `/api/studies/${s.id}`);
  if (study) return { data: study };
  const project = call.path.match(/^\/api\/projects\/(\d+)$/);
  if (project && projects[project[1]]) return { data: projects[project[1]] };
  if (call.path === "/api/sites") return { data: page(sites) };
  if (call.path === "/api/audit") return { data: { items: [] } };
}

const routes = [
  { path: "/monitor-assignments", element: <List /> },
  { path: "/monitor-assignments/create", element: <Form /> },
  { path: "/monitor-assignments/:itemId", element: <Detail /> },
  { path: "/monitor-assignments/:itemId/edit", element: <Form /> },
];

const listCalls = (calls: Call[]) =>
  calls.filter((c) => c.path === "/api/monitor-assignments" && c.method === "GET");

async function choose(u: ReturnType<typeof userEvent.setup>, field: string, option: string | RegExp) {
  await u.click(screen.getByRole("combobox", { name: field }));
  await u.click(await screen.findByRole("option", { name: option }));
}

const clicksTimeout = 20_000;

describe("the monitor assignments list (issue 44)", { timeout: clicksTimeout }, () => {
  it("lists who monitors which study, where and when, and whether it holds today", async () => {
    stubApi(server);
    renderRoutes(routes, ["/monitor-assignments"]);
    expect(await screen.findByRole("heading", { name: "Monitor assignments" })).toBeInTheDocument();
    const table = await screen.findByRole("table", { name: "Monitor assignments" });
    await within(table).findByText("TD-2025-002_EXT");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Monitor", "Study", "Sites", "Access from", "Access to", "Current", "Actions"]);
    const [, first, second] = within(table).getAllByRole("row");
    const cells = (row: HTMLElement) => Array.from(row.children, (c) => c.textContent).slice(0, 6);
    expect(cells(first)).toEqual([
      "Mona Monitor",
      "TD-2025-001_NORMAL",
      "Every site",
      "2026-03-01",
      "2026-03-31",
      "Yes",
    ]);
    // The sites by code, once the sites are known.
    await waitFor(() =>
      expect(cells(second)).toEqual([
        "Mona Monitor",
        "TD-2025-002_EXT",
        "BUD, VIE",
        "2025-01-01",
        "2025-06-30",
        "No",
      ]),
    );
    expect(
      within(second).getByRole("link", { name: "View Mona Monitor for TD-2025-002_EXT" }),
    ).toHaveAttribute("href", "/monitor-assignments/mas-2");
    expect(screen.getByRole("button", { name: "Add" })).toBeInTheDocument();
  });

  it("filters by monitor and study, kept in the URL", async () => {
    const calls = stubApi(server);
    const u = userEvent.setup();
    const { router } = renderRoutes(routes, ["/monitor-assignments"]);
    const filters = await screen.findByRole("group", { name: "Filters" });
    expect(within(filters).getByRole("combobox", { name: "Monitor" })).toHaveTextContent("All");
    await choose(u, "Study", "TD-2025-002_EXT");
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("studyId")).toBe("11"));
    // An inactive monitor says so.
    await choose(u, "Monitor", "Ivo Idle (inactive)");
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("monitorId")).toBe("4"));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      studyId: "11",
      monitorId: "4",
    });
  });
});

describe("the monitor assignment form (issue 44)", { timeout: clicksTimeout }, () => {
  it("assigns a monitor to a study at sites of its project, for dates checked before sending", async () => {
    const calls = stubApi(server);
    const u = userEvent.setup();
    renderRoutes(routes, ["/monitor-assignments/create"]);
    expect(await screen.findByRole("heading", { name: "New monitor assignment" })).toBeInTheDocument();
    // The sites wait for a study: they are its project's.
    const sitesField = screen.getByRole("combobox", { name: "Sites" });
    expect(sitesField).toBeDisabled();
    expect(sitesField).toHaveAccessibleDescription("None chosen: every site of the study's project");

    await saveWhenReady(u);
    for (const message of [
      "Monitor is required",
      "Study is required",
      "Access from is required",
      "Access to is required",
    ])
      expect(await screen.findByText(message)).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await choose(u, "Monitor", "Mona Monitor");
    await choose(u, "Study", "TD-2025-001_NORMAL");
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Sites" })).toBeEnabled());
    await u.click(screen.getByRole("combobox", { name: "Sites" }));
    // Only the study's project's sites: Warsaw is another project's.
    await waitFor(async () =>
      expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual([
        "BUD - Budapest CRC",
        "VIE - Vienna TC",
      ]),
    );
    await u.click(screen.getByRole("option", { name: "VIE - Vienna TC" }));
    await u.keyboard("{Escape}");

    await u.type(screen.getByLabelText("Access from"), "2026-04-10");
    await u.type(screen.getByLabelText("Access to"), "2026-04-01");
    await saveWhenReady(u);
    expect(await screen.findByText("Access to cannot be before Access from")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await u.clear(screen.getByLabelText("Access to"));
    await u.type(screen.getByLabelText("Access to"), "2026-04-17");
    await u.type(screen.getByLabelText("Notes"), "Close-out visit");
    await saveWhenReady(u);
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    const post = calls.find((c) => c.method === "POST");
    expect(post?.path).toBe("/api/monitor-assignments");
    expect(post?.body).toMatchObject({
      monitorId: 3,
      studyId: 10,
      siteIds: [2],
      accessFrom: "2026-04-10",
      accessTo: "2026-04-17",
      notes: "Close-out visit",
    });
    expect(post?.body).toHaveProperty("uuid", expect.stringMatching(/^mas-/));
  });

  it("edits an assignment: another study leaves the sites chosen for the previous one", async () => {
    const calls = stubApi((call) =>
      call.method === "PUT"
        ? fieldRefusal("siteIds", "A chosen site is not a site of the study's project")
        : server(call),
    );
    const u = userEvent.setup();
    renderRoutes(routes, ["/monitor-assignments/mas-2/edit"]);
    expect(await screen.findByRole("heading", { name: "Monitor assignment" })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("combobox", { name: "Monitor" })).toHaveTextContent("Mona Monitor"),
    );
    expect(screen.getByRole("combobox", { name: "Study" })).toHaveTextContent("TD-2025-002_EXT");
    expect(screen.getByLabelText("Access from")).toHaveValue("2025-01-01");
    expect(screen.getByLabelText("Access to")).toHaveValue("2025-06-30");
    // Sites the study's project (Warsaw only) does not have stay named, to be removed.
    await waitFor(() =>
      expect(screen.getByRole("combobox", { name: "Sites" })).toHaveTextContent(
        "BUD - Budapest CRC, VIE - Vienna TC",
      ),
    );

    // The server's word on a site goes on the Sites field.
    await saveWhenReady(u);
    expect(await screen.findByText("A chosen site is not a site of the study's project")).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Sites" })).toHaveAttribute("aria-invalid", "true");

    await choose(u, "Study", "TD-2025-001_NORMAL");
    expect(screen.getByRole("combobox", { name: "Sites" })).not.toHaveTextContent("BUD");
    await saveWhenReady(u);
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(2));
    expect(calls.filter((c) => c.method === "PUT").at(-1)?.body).toMatchObject({
      id: 2,
      version: 2,
      studyId: 10,
      siteIds: [],
    });
  });
});

describe("the monitor assignment detail (issue 44)", () => {
  it("shows the assignment in words, its sites by name, and the history", async () => {
    stubApi(server);
    renderRoutes(routes, ["/monitor-assignments/mas-2"]);
    expect(await screen.findByRole("heading", { name: "Monitor assignment" })).toBeInTheDocument();
    const value = (label: string) =>
      screen.getByText(label, { selector: "dt" }).nextElementSibling?.textContent;
    await screen.findByText("Monitor", { selector: "dt" });
    expect(value("Monitor")).toBe("Mona Monitor");
    expect(value("Study")).toBe("TD-2025-002_EXT");
    await waitFor(() => expect(value("Sites")).toBe("BUD - Budapest CRC, VIE - Vienna TC"));
    expect(value("Access from")).toBe("2025-01-01");
    expect(value("Access to")).toBe("2025-06-30");
    expect(value("Current")).toBe("No");
    expect(value("Notes")).toBe("Interim monitoring visits");
    expect(screen.getByRole("link", { name: "Edit" })).toHaveAttribute(
      "href",
      "/monitor-assignments/mas-2/edit",
    );
    expect(await screen.findByRole("heading", { name: "History" })).toBeInTheDocument();
  });

  it("names no site when the assignment covers every site of the study's project", async () => {
    stubApi((call) => (call.path === "/api/monitor-assignments/mas-1" ? { data: rows[0] } : server(call)));
    renderRoutes(routes, ["/monitor-assignments/mas-1"]);
    const sitesLabel = await screen.findByText("Sites", { selector: "dt" });
    expect(sitesLabel.nextElementSibling).toHaveTextContent("Every site of the study's project");
    expect(screen.getByText("Current", { selector: "dt" }).nextElementSibling).toHaveTextContent("Yes");
  });
});
