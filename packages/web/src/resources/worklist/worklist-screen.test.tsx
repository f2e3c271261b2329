import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SiteOption, WorklistData, WorklistRow } from "@trialdesk/domain";
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../../app/site";
import { type Call, defaultUser, heldBack, renderRoutes, stubApi } from "../../screens/test-utils";
import { recordVisitRoute, WorklistScreen } from "./worklist-screen";

const site = { id: 7, uuid: "sit-7", code: "BUD", shortName: "Budapest", city: "Budapest" } as SiteOption;

const row = (over: Partial<WorklistRow>): WorklistRow => ({
  rowId: "1-100",
  patientId: 1,
  patientUuid: "prt-1",
  barcode: "BUD-000001",
  patientName: "Kiss Anna",
  patientStatus: 1,
  screenNr: "S-001",
  studyId: 10,
  studyUuid: "std-10",
  studyName: "TD-2025-001_NORMAL",
  visitId: 100,
  visitName: "Week 2",
  visitType: 60,
  expectedDate: "2026-03-14",
  windowStart: "2026-03-12",
  windowEnd: "2026-03-16",
  state: "overdue",
  bookedOutsideWindow: false,
  bookingPassed: false,
  deviationUuid: null,
  deviationStatus: null,
  daysOutside: null,
  patientVisitId: null,
  patientVisitUuid: null,
  visitDate: null,
  visitTime: null,
  visitStatus: null,
  ...over,
});

const rows = [
  row({}),
  row({
    rowId: "2-101",
    patientId: 2,
    barcode: "BUD-000002",
    patientName: "Nagy Béla",
    patientStatus: 0,
    screenNr: "S-002",
    visitId: 101,
    visitName: "Week 4",
    expectedDate: "2026-03-28",
    windowStart: "2026-03-26",
    windowEnd: "2026-03-30",
    state: "booked",
    bookedOutsideWindow: true,
    patientVisitId: 55,
    patientVisitUuid: "ptv-55",
    visitDate: "2026-04-02",
    visitTime: "10:30",
    visitStatus: "BOOKED",
  }),
];
const counts = {
  due: 4,
  overdue: 1,
  booked: 1,
  upcoming: 9,
  unscheduled: 3,
  missed: 6,
  "deviations-open": 2,
};

function server() {
  return stubApi((call: Call) => {
    if (call.path === "/api/me/sites") return { data: { items: [site] } };
    if (call.path === "/api/worklist") {
      const states = call.search.get("state")?.split(",");
      const items = states ? rows.filter((r) => states.includes(r.state)) : rows;
      const data: WorklistData = {
        items,
        pagination: { page: 1, pageSize: 20, total: items.length },
        counts,
      };
      return { data };
    }
  });
}

const routes = [
  { path: "/worklist", element: <WorklistScreen /> },
  { path: "/patient-visits/create", element: <h1>New visit form</h1> },
  { path: "/patient-visits/:itemId/edit", element: <h1>Visit editor</h1> },
].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));

beforeEach(() => localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid));

const worklistCalls = (calls: Call[]) => calls.filter((c) => c.path === "/api/worklist");

describe("worklist", () => {
  it("lists the active site's visits with screen number, window, expected date, state and booking", async () => {
    const calls = server();
    renderRoutes(routes, ["/worklist"]);
    const table = await screen.findByRole("table", { name: "Worklist" });
    await within(table).findAllByText("Kiss Anna");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual([
      "Patient",
      "Screen Nr",
      "Study",
      "Visit",
      "Window",
      "Expected",
      "State",
      "Booked for",
      "Actions",
    ]);
    const [, first, second] = within(table).getAllByRole("row");
    expect(Array.from(first.children, (c) => c.textContent).slice(1, 8)).toEqual([
      "S-001",
      "TD-2025-001_NORMAL",
      "Week 2",
      "12 Mar – 16 Mar 2026",
      "14 Mar 2026",
      "Overdue",
      "",
    ]);
    // A booking shows its day and hour; outside its window it says so, in amber, blocking nothing.
    expect(within(second).getByText("2 Apr 2026, 10:30")).toBeInTheDocument();
    expect(within(second).getByText("Outside the planned window")).toHaveClass("text-amber-800");
    // An inactive patient is marked beside the name; an active one is not.
    expect(within(second.children[0] as HTMLElement).getAllByText("Inactive").length).toBeGreaterThan(0);
    expect(within(first).queryByText("Inactive")).not.toBeInTheDocument();
    // Scoped to the site; no state filter until a chip is chosen; the search goes as `search`.
    const [call] = worklistCalls(calls);
    expect(call.search.get("siteId")).toBe("7");
    expect(call.search.has("state")).toBe(false);
  });

  it("shows each chip with its count and keeps the chosen states in the URL", async () => {
    const user = userEvent.setup();
    const calls = server();
    const { router } = renderRoutes(routes, ["/worklist?page=2"]);
    const overdue = await screen.findByRole("button", { name: "Overdue 1" });
    expect(screen.getByRole("button", { name: "Due 4" })).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByRole("button", { name: "Booked 1" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Upcoming (next 14 days) 9" })).toBeInTheDocument();
    // Issue 43: Missed and Deviations open replace Out of window.
    expect(
      within(screen.getByRole("group", { name: "Show visits that are" }))
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual([
      "Overdue 1",
      "Due 4",
      "Booked 1",
      "Upcoming (next 14 days) 9",
      "Unscheduled 3",
      "Missed 6",
      "Deviations open 2",
    ]);
    expect(screen.queryByRole("button", { name: /Out of window/ })).not.toBeInTheDocument();

    await user.click(overdue);
    expect(overdue).toHaveAttribute("aria-pressed", "true");
    // A new filter starts at page 1.
    expect(router.state.location.search).toBe("?state=overdue");
    await waitFor(() => expect(screen.queryByText("Nagy Béla")).not.toBeInTheDocument());
    expect(worklistCalls(calls).at(-1)?.search.get("state")).toBe("overdue");

    await user.click(screen.getByRole("button", { name: "Booked 1" }));
    expect(router.state.location.search).toBe("?state=overdue%2Cbooked");
    expect((await screen.findAllByText("Nagy Béla")).length).toBeGreaterThan(0);
    expect(worklistCalls(calls).at(-1)?.search.get("state")).toBe("overdue,booked");
    // The counts stay whatever the filter: they come from the answer, not from the rows shown.
    expect(screen.getByRole("button", { name: "Due 4" })).toBeInTheDocument();

    await user.click(overdue);
    await user.click(screen.getByRole("button", { name: "Booked 1" }));
    expect(router.state.location.search).toBe("");
  });

  it("sends the search text as `search`", async () => {
    const user = userEvent.setup();
    const calls = server();
    renderRoutes(routes, ["/worklist"]);
    await user.type(await screen.findByRole("searchbox", { name: "Search" }), "Kiss");
    await waitFor(() => expect(worklistCalls(calls).at(-1)?.search.get("search")).toBe("Kiss"));
    expect(worklistCalls(calls).at(-1)?.search.has("searchTerm")).toBe(false);
  });

  it("Record visit always opens a new visit with patient, study and visit chosen, and remembers the worklist", async () => {
    const user = userEvent.setup();
    server();
    const { router } = renderRoutes(routes, ["/worklist?state=overdue,booked"]);
    const table = await screen.findByRole("table", { name: "Worklist" });
    await user.click(await within(table).findByRole("link", { name: "Record visit Week 2 of Kiss Anna" }));
    expect(await screen.findByRole("heading", { name: "New visit form" })).toBeInTheDocument();
    const params = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(params)).toEqual({
      patientId: "1",
      studyId: "10",
      visitId: "100",
      returnTo: "/worklist?state=overdue,booked",
    });
    // A booking is not reopened either: its outcome is a record of its own (issue 43).
    expect(recordVisitRoute(rows[1], "/worklist")).toBe(
      "/patient-visits/create?patientId=2&studyId=10&visitId=101&returnTo=%2Fworklist",
    );
  });

  it("says when a booking's day has passed, and shows a deviation's days with a link instead of Record visit once the visit is done", async () => {
    const passed = row({
      rowId: "3-102",
      patientName: "Tóth Ede",
      visitName: "Week 6",
      state: "overdue",
      bookingPassed: true,
      patientVisitUuid: "ptv-60",
      visitDate: "2026-03-13",
      visitStatus: "BOOKED",
    });
    const late = row({
      rowId: "4-103",
      patientName: "Varga István",
      barcode: "BUD-000004",
      visitName: "Week 8",
      state: "out-of-window",
      deviationUuid: "dev-8",
      deviationStatus: "OPEN",
      daysOutside: 2,
      visitDate: "2026-03-18",
      visitStatus: "COMPLETED",
    });
    const missed = row({
      rowId: "5-104",
      patientName: "Szabó Ildikó",
      visitName: "Week 10",
      state: "missed",
      deviationUuid: "dev-9",
      deviationStatus: "REPORTED",
    });
    stubApi((call: Call) => {
      if (call.path === "/api/me/sites") return { data: { items: [site] } };
      if (call.path === "/api/worklist") {
        const items = [passed, late, missed];
        return { data: { items, pagination: { page: 1, pageSize: 20, total: 3 }, counts } };
      }
    });
    renderRoutes(routes, ["/worklist?state=deviations-open"]);
    const table = await screen.findByRole("table", { name: "Worklist" });
    const rowOf = async (name: string) =>
      (await within(table).findAllByText(name))[0]?.closest("tr") as HTMLElement;
    /** The row's State column (the card holds the state too). */
    const stateOf = (tr: HTMLElement) => tr.children[6] as HTMLElement;

    const booking = await rowOf("Tóth Ede");
    expect(within(booking).getByText("13 Mar 2026")).toBeInTheDocument();
    expect(within(booking).getByText("Booked date passed: record the outcome")).toBeInTheDocument();
    expect(within(booking).getByRole("link", { name: /^Record visit/ })).toBeInTheDocument();

    // Done out of its window: its days and its deviation, nothing left to record.
    const outside = await rowOf("Varga István");
    expect(within(stateOf(outside)).getByText("Out of window")).toBeInTheDocument();
    expect(within(stateOf(outside)).getByText("+2 days")).toBeInTheDocument();
    expect(
      within(stateOf(outside)).getByRole("link", { name: "Deviation of Week 8 of Varga István" }),
    ).toHaveAttribute("href", "/protocol-deviations/dev-8");
    expect(within(outside).queryByRole("link", { name: /^Record visit/ })).not.toBeInTheDocument();

    const gone = await rowOf("Szabó Ildikó");
    expect(within(stateOf(gone)).getByText("Missed")).toBeInTheDocument();
    expect(
      within(stateOf(gone)).getByRole("link", { name: "Deviation of Week 10 of Szabó Ildikó" }),
    ).toHaveAttribute("href", "/protocol-deviations/dev-9");
  });

  it("sorts by the booked date, and takes a date range kept in the URL with a way back to the 14 days (issue 46)", async () => {
    const user = userEvent.setup();
    const calls = server();
    const { router } = renderRoutes(routes, ["/worklist"]);
    const table = await screen.findByRole("table", { name: "Worklist" });
    await user.click(within(table).getByRole("button", { name: "Booked for" }));
    expect(router.state.location.search).toBe("?order=visitDate&direction=asc");
    await waitFor(() => expect(worklistCalls(calls).at(-1)?.search.get("order")).toBe("visitDate"));
    // The window sorts as before.
    expect(within(table).getByRole("button", { name: "Window" })).toBeInTheDocument();

    expect(screen.queryByRole("button", { name: "Next 14 days" })).not.toBeInTheDocument();
    await user.type(screen.getByRole("textbox", { name: "From" }), "20260518");
    await user.type(screen.getByRole("textbox", { name: "To" }), "20260524");
    await waitFor(() =>
      expect(Object.fromEntries(worklistCalls(calls).at(-1)?.search ?? [])).toMatchObject({
        from: "2026-05-18",
        to: "2026-05-24",
      }),
    );
    expect(new URLSearchParams(router.state.location.search).get("from")).toBe("2026-05-18");
    // Within a range of its own, Upcoming is not "the next 14 days".
    expect(screen.getByRole("button", { name: "Upcoming 9" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Next 14 days" }));
    await waitFor(() => expect(worklistCalls(calls).at(-1)?.search.has("from")).toBe(false));
    expect(worklistCalls(calls).at(-1)?.search.has("to")).toBe(false);
    expect(screen.getByRole("textbox", { name: "From" })).toHaveValue("");
    expect(screen.getByRole("button", { name: "Upcoming (next 14 days) 9" })).toBeInTheDocument();
  });

  it("on a phone shows each row as a card with patient, visit, window and state, the other columns left out (issue 46, point 9)", async () => {
    server();
    renderRoutes(routes, ["/worklist"]);
    const table = await screen.findByRole("table", { name: "Worklist" });
    await within(table).findAllByText("Kiss Anna");
    const [, first] = within(table).getAllByRole("row");
    const card = first.querySelector('[data-card="worklist-row"]') as HTMLElement;
    // Shown below the sm breakpoint only; the columns it stands for are hidden there.
    expect(card).toHaveClass("sm:hidden");
    expect(within(card).getByText("Kiss Anna")).toBeInTheDocument();
    expect(within(card).getByText("Week 2")).toBeInTheDocument();
    expect(within(card).getByText("12 Mar –")).toBeInTheDocument();
    expect(within(card).getByText("Overdue")).toBeInTheDocument();
    const cells = Array.from(first.children);
    expect(cells.slice(1, 8).every((cell) => cell.classList.contains("max-sm:hidden"))).toBe(true);
    expect(within(first).getByRole("link", { name: "Record visit Week 2 of Kiss Anna" })).toBeInTheDocument();
  });

  it("asks for a site first", async () => {
    localStorage.clear();
    const calls = server();
    renderRoutes(routes, ["/worklist"]);
    expect(await screen.findByText("Please select a site first")).toBeInTheDocument();
    expect(worklistCalls(calls)).toEqual([]);
  });
});

describe("the worklist's Queries chip (issue 44)", () => {
  /** The worklist, with the site's open queries counted as `total`; `held` keeps that answer back. */
  function withQueries(total: number, held?: Promise<void>) {
    return stubApi(async (call: Call) => {
      if (call.path === "/api/queries") {
        await held;
        return { data: { items: [], pagination: { page: 1, pageSize: 1, total } } };
      }
      if (call.path === "/api/me/sites") return { data: { items: [site] } };
      if (call.path === "/api/worklist")
        return { data: { items: rows, pagination: { page: 1, pageSize: 20, total: 2 }, counts } };
    });
  }

  it("counts the site's open queries and leads to them", async () => {
    const user = userEvent.setup();
    const { released, release } = heldBack();
    const calls = withQueries(3, released);
    const { router } = renderRoutes(
      [...routes, { path: "/queries", element: <h1>Queries list</h1> }],
      ["/worklist"],
    );
    // No count until it is known.
    const chip = await screen.findByRole("link", { name: "Queries" });
    expect(chip).toHaveAttribute("href", "/queries?status=OPEN");
    release();
    expect(await screen.findByRole("link", { name: "Queries 3" })).toBe(chip);
    const call = calls.find((c) => c.path === "/api/queries");
    expect(Object.fromEntries(call?.search ?? [])).toMatchObject({
      status: "OPEN",
      siteId: "7",
      pagesize: "1",
    });
    // A link beside the state chips, not one of them.
    expect(
      within(screen.getByRole("group", { name: "Show visits that are" })).queryByRole("link"),
    ).toBeNull();
    await user.click(chip);
    expect(await screen.findByRole("heading", { name: "Queries list" })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe("/queries?status=OPEN");
  });

  it("says Queries 0 when the site has none open", async () => {
    withQueries(0);
    renderRoutes(routes, ["/worklist"]);
    expect(await screen.findByRole("link", { name: "Queries 0" })).toBeInTheDocument();
  });
});
