import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Query, SignedInUser, SiteOption } from "@trialdesk/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../../app/site";
import {
  type ApiHandler,
  type Call,
  defaultUser,
  renderRoutes,
  saveWhenReady,
  signedInAs,
  stubApi,
} from "../../screens/test-utils";
import { Detail, Form, List } from "./query-screens";

const site = { id: 7, uuid: "sit-7", code: "BUD", shortName: "Budapest", city: "Budapest" } as SiteOption;

/** The demo study's monitor: no sites, reads the studies of their assignments. */
const monitor: SignedInUser = {
  id: 5,
  uuid: "mon-5",
  email: "monitor@example.com",
  profile: { firstName: "Mona", lastName: "Monitor" },
  isAdmin: false,
  siteIds: [],
  kind: "monitor",
};
/** A coordinator of the Budapest site. */
const coordinator: SignedInUser = { ...defaultUser, isAdmin: false, siteIds: [7], kind: "user" };

type QueryRecord = Query & { updatedAt: string };

const listRow = (over: Partial<QueryRecord>): QueryRecord => ({
  id: 1,
  uuid: "qry-1",
  version: 1,
  patientVisitId: 55,
  patientVisitUuid: "pv-55",
  barcode: "BUD-000001",
  studyId: 10,
  studyName: "TD-2025-001_NORMAL",
  siteId: 7,
  visitName: "Week 2",
  visitDate: "2026-03-14",
  text: "The blood pressure in the source notes is 150/95, the visit says 130/85. Which one is right?",
  status: "OPEN",
  openedByName: "Mona Monitor",
  createdAt: "2026-03-18T12:00:00Z",
  updatedAt: "2026-03-19T12:00:00Z",
  ...over,
});
const rows = [
  listRow({}),
  listRow({
    id: 2,
    uuid: "qry-2",
    barcode: "BUD-000002",
    visitName: "Screening",
    visitDate: "2026-03-02",
    text: "Consent date missing",
    status: "ANSWERED",
  }),
];

const page = (items: object[]) => ({ items, pagination: { page: 1, pageSize: 20, total: items.length } });

/**
 * A small server holding one query (qry-1) and its thread: a message from the site answers it, one
 * from the monitor asks again, the monitor's PUT closes or reopens it; a closed one takes no message.
 */
function queryServer(user: SignedInUser, sites: SiteOption[] = user.kind === "monitor" ? [] : [site]) {
  let query: QueryRecord & { messages: NonNullable<Query["messages"]> } = { ...listRow({}), messages: [] };
  const handler: ApiHandler = (call: Call) => {
    if (call.path === "/api/me/sites") return { data: { items: sites } };
    if (call.path === "/api/queries" && call.method === "GET") return { data: page(rows) };
    if (call.path === "/api/queries/qry-1" && call.method === "GET") return { data: query };
    if (call.path === "/api/queries/qry-1" && call.method === "PUT") {
      const body = call.body as { version: number; status: "OPEN" | "CLOSED" };
      if (body.version !== query.version) return { status: 409, errorMessage: "Changed meanwhile" };
      // The answer of a save carries the record without its thread in a list format; the screen keeps it.
      query = { ...query, status: body.status, version: query.version + 1 };
      return { data: query };
    }
    if (call.path === "/api/queries/qry-1/messages" && call.method === "POST") {
      if (query.status === "CLOSED")
        return { status: 409, errorMessage: "This query is closed: the monitor reopens it to continue" };
      const from = user.kind === "monitor" ? "monitor" : "site";
      query = {
        ...query,
        status: from === "site" ? "ANSWERED" : "OPEN",
        version: query.version + 1,
        messages: [
          ...query.messages,
          {
            at: "2026-03-20T12:00:00Z",
            authorKind: from,
            authorName: `${user.profile.firstName} ${user.profile.lastName}`,
            text: (call.body as { text: string }).text,
          },
        ],
      };
      return { status: 201, data: query };
    }
    if (call.path === "/api/audit") return { data: { items: [] } };
    if (call.path === "/api/studies")
      return { data: page([{ id: 10, uuid: "std-10", workingName: "TD-2025-001_NORMAL" }]) };
    if (call.path === "/api/patient-visits/55")
      return {
        data: {
          patientVisitId: 55,
          patientVisitUuid: "pv-55",
          barcode: "BUD-000001",
          screenNumber: "S-001",
          studyName: "TD-2025-001_NORMAL",
          visitName: "Week 2",
          visitDate: "2026-03-14",
        },
      };
    if (call.path === "/api/queries" && call.method === "POST")
      return { status: 201, data: { ...listRow({}), ...(call.body as object), id: 9, version: 1 } };
  };
  return { calls: stubApi(signedInAs(user, handler)), current: () => query };
}

const routes = [
  { path: "/queries", element: <List /> },
  { path: "/queries/create", element: <Form /> },
  { path: "/queries/:itemId", element: <Detail /> },
  { path: "/queries/:itemId/edit", element: <Form /> },
  { path: "/patient-visits/:itemId", element: <h1>Patient visit page</h1> },
].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));

const listCalls = (calls: Call[]) => calls.filter((c) => c.path === "/api/queries" && c.method === "GET");
const value = (label: string) => screen.getByText(label, { selector: "dt" }).nextElementSibling?.textContent;

const clicksTimeout = 20_000;

beforeEach(() => localStorage.setItem(activeSiteStorageKey(coordinator.uuid), site.uuid));
afterEach(() => localStorage.clear());

describe("the queries list (issue 44)", { timeout: clicksTimeout }, () => {
  it("lists the active site's queries for staff under the issue's columns, with no Add", async () => {
    const { calls } = queryServer(coordinator);
    const { router } = renderRoutes(routes, ["/queries"]);
    expect(await screen.findByRole("heading", { name: "Queries" })).toBeInTheDocument();
    const table = await screen.findByRole("table", { name: "Queries" });
    await within(table).findByText("BUD-000002");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Barcode", "Study", "Visit", "Visit date", "Query", "Status", "Opened", "Updated", "Actions"]);
    const [, first, second] = within(table).getAllByRole("row");
    const cells = (row: HTMLElement) => Array.from(row.children, (c) => c.textContent).slice(0, 8);
    expect(cells(first)).toEqual([
      "BUD-000001",
      "TD-2025-001_NORMAL",
      "Week 2",
      "2026-03-14",
      // Shortened; the whole text is the cell's tooltip.
      "The blood pressure in the source notes is 150/95, the visit…",
      "Open",
      "2026-03-18",
      "2026-03-19",
    ]);
    expect(cells(second)[5]).toBe("Answered");
    expect(listCalls(calls)[0].search.get("siteId")).toBe("7");
    // Raised from a patient visit, never edited or removed here.
    expect(screen.queryByRole("button", { name: "Add" })).not.toBeInTheDocument();
    expect(within(table).queryByRole("link", { name: /^Edit/ })).not.toBeInTheDocument();
    // A row opens the query.
    await userEvent.click(within(first).getByText("Week 2"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/queries/qry-1"));
  });

  it("asks a staff member without a chosen site to choose one, and lists nothing", async () => {
    localStorage.clear();
    const { calls } = queryServer({ ...coordinator, siteIds: [7, 8] }, [
      site,
      { ...site, id: 8, uuid: "sit-8", code: "VIE" },
    ]);
    renderRoutes(routes, ["/queries"]);
    expect(await screen.findByText("Please select a site first")).toBeInTheDocument();
    expect(listCalls(calls)).toEqual([]);
  });

  it("filters by status chips kept in the URL: Open, Answered, Closed, All", async () => {
    const { calls } = queryServer(coordinator);
    const u = userEvent.setup();
    // The home tile's link: the open ones.
    const { router } = renderRoutes(routes, ["/queries?status=OPEN"]);
    const chips = await screen.findByRole("group", { name: "Show queries that are" });
    expect(within(chips).getByRole("button", { name: "Open" })).toHaveAttribute("aria-pressed", "true");
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("status")).toBe("OPEN"));
    expect(
      within(chips)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["Open", "Answered", "Closed", "All"]);

    await u.click(within(chips).getByRole("button", { name: "Answered" }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("status")).toBe("ANSWERED"));
    expect(router.state.location.search).toBe("?status=ANSWERED");
    expect(within(chips).getByRole("button", { name: "Answered" })).toHaveAttribute("aria-pressed", "true");
    expect(listCalls(calls).at(-1)?.search.get("siteId")).toBe("7");

    await u.click(within(chips).getByRole("button", { name: "All" }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.has("status")).toBe(false));
    expect(router.state.location.search).toBe("");
  });

  it("lists one visit's queries when a visit links here, until Show all queries", async () => {
    const { calls } = queryServer(monitor);
    const u = userEvent.setup();
    const { router } = renderRoutes(routes, ["/queries?patientVisitId=55"]);
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("patientVisitId")).toBe("55"));
    expect(await screen.findByText("The queries of one patient visit.")).toBeInTheDocument();
    await u.click(screen.getByRole("button", { name: "Show all queries" }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.has("patientVisitId")).toBe(false));
    expect(router.state.location.search).toBe("");
  });

  it("lists a monitor's queries of all their studies: no site asked for or sent", async () => {
    const { calls } = queryServer(monitor);
    renderRoutes(routes, ["/queries"]);
    const table = await screen.findByRole("table", { name: "Queries" });
    await within(table).findByText("BUD-000001");
    expect(screen.queryByText("Please select a site first")).not.toBeInTheDocument();
    expect(listCalls(calls)[0].search.has("siteId")).toBe(false);
    expect(screen.queryByRole("button", { name: "Add" })).not.toBeInTheDocument();
  });
});

describe("raising a query (issue 44)", { timeout: clicksTimeout }, () => {
  it("shows the visit it is about, needs the question, creates it and opens its detail", async () => {
    const { calls } = queryServer(monitor);
    const u = userEvent.setup();
    const { router } = renderRoutes(routes, ["/queries/create?patientVisitId=55"]);
    expect(await screen.findByRole("heading", { name: "Raise query" })).toBeInTheDocument();
    const visit = await screen.findByRole("region", { name: "Patient visit" });
    await within(visit).findByText("BUD-000001");
    expect(within(visit).getByText("Week 2")).toBeInTheDocument();
    expect(within(visit).getByText("TD-2025-001_NORMAL")).toBeInTheDocument();
    expect(within(visit).getByText("2026-03-14")).toBeInTheDocument();
    // Read without the patient's identity: the source verification's shape of the visit.
    expect(calls.find((c) => c.path === "/api/patient-visits/55")?.search.get("format")).toBe("sdv");

    // The question is required.
    await saveWhenReady(u);
    expect(await screen.findByText("Query is required")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await u.type(screen.getByRole("textbox", { name: "Query" }), "Is the visit date right?");
    await saveWhenReady(u);
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    const post = calls.find((c) => c.method === "POST");
    expect(post?.path).toBe("/api/queries");
    expect(post?.body).toMatchObject({ patientVisitId: 55, text: "Is the visit date right?" });
    expect(post?.body).toHaveProperty("uuid", expect.stringMatching(/^qry-/));
    const uuid = (post?.body as { uuid: string } | undefined)?.uuid;
    await waitFor(() => expect(router.state.location.pathname).toBe(`/queries/${uuid}`));
  });

  it("is the monitors' alone: staff are told so, with no Save", async () => {
    queryServer(coordinator);
    renderRoutes(routes, ["/queries/create?patientVisitId=55"]);
    expect(await screen.findByText(/Only a monitor opens and closes queries/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Save" })).not.toBeInTheDocument();
  });

  it("offers no editing of an asked query: its edit route shows its detail", async () => {
    queryServer(monitor);
    const { router } = renderRoutes(routes, ["/queries/qry-1/edit"]);
    await waitFor(() => expect(router.state.location.pathname).toBe("/queries/qry-1"));
    expect(await screen.findByRole("heading", { name: "Query" })).toBeInTheDocument();
  });
});

describe("the query detail (issue 44)", { timeout: clicksTimeout }, () => {
  it("shows the query, and the site's answer in the thread makes it Answered", async () => {
    const { calls } = queryServer(coordinator);
    const u = userEvent.setup();
    renderRoutes(routes, ["/queries/qry-1"]);
    expect(await screen.findByRole("heading", { name: "Query" })).toBeInTheDocument();
    await screen.findByText("Status", { selector: "dt" });
    expect(value("Status")).toBe("Open");
    expect(value("Patient barcode")).toBe("BUD-000001");
    expect(value("Study")).toBe("TD-2025-001_NORMAL");
    expect(screen.getByRole("link", { name: "Week 2, 2026-03-14" })).toHaveAttribute(
      "href",
      "/patient-visits/pv-55",
    );
    expect(value("Opened by")).toBe("Mona Monitor");
    expect(value("Query")).toMatch(/^The blood pressure/);
    // Never edited; staff neither close nor reopen.
    expect(screen.queryByRole("link", { name: "Edit" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Close query" })).not.toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "History" })).toBeInTheDocument();

    const thread = screen.getByRole("region", { name: "Messages" });
    expect(within(thread).getByText("No messages yet.")).toBeInTheDocument();
    const send = within(thread).getByRole("button", { name: "Send" });
    expect(send).toBeDisabled();
    await u.type(within(thread).getByRole("textbox", { name: "Message" }), "  ");
    expect(send).toBeDisabled();
    await u.clear(within(thread).getByRole("textbox", { name: "Message" }));
    await u.type(
      within(thread).getByRole("textbox", { name: "Message" }),
      "The source says 130/85; the note was a typo.",
    );
    await u.click(send);
    const posted = await waitFor(() => {
      const call = calls.find((c) => c.path === "/api/queries/qry-1/messages");
      expect(call).toBeDefined();
      return call;
    });
    expect(posted?.method).toBe("POST");
    expect(posted?.body).toEqual({ text: "The source says 130/85; the note was a typo." });
    await waitFor(() => expect(value("Status")).toBe("Answered"));
    const messages = within(thread).getByRole("list", { name: "Messages" });
    const [message] = within(messages).getAllByRole("listitem");
    expect(message).toHaveTextContent("Ada Admin (Site)");
    expect(message).toHaveTextContent("The source says 130/85; the note was a typo.");
    // The box is empty again for the next message.
    expect(within(thread).getByRole("textbox", { name: "Message" })).toHaveValue("");
  });

  it("shows the thread in order with who wrote, and the server's refusal of a message", async () => {
    let refuse = true;
    const thread = [
      { at: "2026-03-18T12:00:00Z", authorKind: "monitor", authorName: "Mona Monitor", text: "First" },
      { at: "2026-03-19T12:00:00Z", authorKind: "site", authorName: "Ada Admin", text: "Second" },
    ];
    const calls = stubApi(
      signedInAs(coordinator, (call) => {
        if (call.path === "/api/me/sites") return { data: { items: [site] } };
        if (call.path === "/api/queries/qry-1" && call.method === "GET")
          return { data: { ...listRow({ status: "ANSWERED" }), messages: thread } };
        if (call.path === "/api/queries/qry-1/messages" && refuse) {
          refuse = false;
          return { status: 403, errorMessage: "Not a member of this site" };
        }
        if (call.path === "/api/audit") return { data: { items: [] } };
      }),
    );
    const u = userEvent.setup();
    renderRoutes(routes, ["/queries/qry-1"]);
    const list = await screen.findByRole("list", { name: "Messages" });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((item) => item.querySelector("p:last-child")?.textContent)).toEqual(["First", "Second"]);
    expect(items[0]).toHaveTextContent("Mona Monitor (Monitor)");
    expect(items[1]).toHaveTextContent("Ada Admin (Site)");
    await u.type(screen.getByRole("textbox", { name: "Message" }), "More");
    await u.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Not a member of this site");
    // What was typed stays, to send again.
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveValue("More");
    expect(calls.filter((c) => c.path === "/api/queries/qry-1/messages")).toHaveLength(1);
  });

  it("lets the monitor close the query, then reopen it; a closed one takes no message", async () => {
    const { calls, current } = queryServer(monitor);
    const u = userEvent.setup();
    renderRoutes(routes, ["/queries/qry-1"]);
    await screen.findByText("Status", { selector: "dt" });
    expect(value("Status")).toBe("Open");
    expect(screen.queryByRole("link", { name: "Edit" })).not.toBeInTheDocument();
    await u.click(await screen.findByRole("button", { name: "Close query" }));
    await waitFor(() => expect(value("Status")).toBe("Closed"));
    const put = calls.find((c) => c.method === "PUT");
    expect(put?.path).toBe("/api/queries/qry-1");
    expect(put?.body).toEqual({
      id: 1,
      uuid: "qry-1",
      version: 1,
      patientVisitId: 55,
      // The question stays as asked.
      text: listRow({}).text,
      status: "CLOSED",
    });
    expect(current().status).toBe("CLOSED");
    expect(screen.queryByRole("textbox", { name: "Message" })).not.toBeInTheDocument();
    expect(screen.getByText(/This query is closed: the monitor reopens it to continue/)).toBeInTheDocument();

    await u.click(await screen.findByRole("button", { name: "Reopen query" }));
    await waitFor(() => expect(value("Status")).toBe("Open"));
    expect(calls.filter((c) => c.method === "PUT").at(-1)?.body).toMatchObject({
      version: 2,
      status: "OPEN",
    });
    expect(screen.getByRole("button", { name: "Close query" })).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Message" })).toBeInTheDocument();
  });
});
