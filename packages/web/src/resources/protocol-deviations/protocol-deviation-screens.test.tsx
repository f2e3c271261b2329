import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ProtocolDeviation, SiteOption, VisitOption } from "@trialdesk/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../../app/site";
import { type Call, defaultUser, renderRoutes, saveWhenReady, stubApi } from "../../screens/test-utils";
import { Detail, Form, List } from "./protocol-deviation-screens";

const site = { id: 7, uuid: "sit-7", code: "BUD", shortName: "Budapest", city: "Budapest" } as SiteOption;

const listRow = (over: object) => ({
  id: 1,
  uuid: "dev-1",
  patientId: 1,
  barcode: "BUD-000001",
  patientName: "Kovács Anna",
  studyId: 10,
  studyName: "TD-2025-001_NORMAL",
  visitId: 101,
  visitName: "Week 2",
  patientVisitId: 55,
  kind: "OUT_OF_WINDOW",
  source: "AUTOMATIC",
  daysOutside: 2,
  detectedOn: "2026-03-18",
  severity: "MINOR",
  status: "OPEN",
  noLongerApplies: false,
  ...over,
});
const rows = [
  listRow({}),
  listRow({
    id: 2,
    uuid: "dev-2",
    patientId: 2,
    barcode: "BUD-000002",
    patientName: "Nagy László",
    visitId: null,
    visitName: null,
    patientVisitId: null,
    kind: "INFORMED_CONSENT",
    source: "MANUAL",
    daysOutside: null,
    detectedOn: "2026-03-02",
    severity: "MAJOR",
    status: "CLOSED",
    noLongerApplies: true,
  }),
];

/** Kovács Anna's Week 2, done two days after its window: the deviation Trialdesk recorded. */
const automatic: ProtocolDeviation = {
  ...listRow({}),
  version: 3,
  siteId: 7,
  studyPatientId: 30,
  description: "Visit completed 2 days after its window closed (12 Mar – 16 Mar 2026).",
  reportedOn: null,
  correctiveAction: null,
  closedOn: null,
} as ProtocolDeviation;

const page = (items: object[]) => ({ items, pagination: { page: 1, pageSize: 20, total: items.length } });
const visitOption = (visitId: number, visitName: string) =>
  ({ visitId, visitName, visitUuid: `visit-${visitId}`, visitType: 60, mandatory: 1 }) as VisitOption;

function server(call: Call) {
  if (call.path === "/api/me/sites") return { data: { items: [site] } };
  if (call.path === "/api/protocol-deviations" && call.method === "GET") return { data: page(rows) };
  if (call.path === "/api/protocol-deviations/dev-1") {
    if (call.method === "PUT") return { data: { ...(call.body as object), version: 4 } };
    return { data: automatic };
  }
  if (call.path === "/api/protocol-deviations" && call.method === "POST")
    return { status: 201, data: { ...(call.body as object), id: 9, version: 1 } };
  if (call.path === "/api/studies")
    return {
      data: page([
        { id: 10, uuid: "std-10", workingName: "TD-2025-001_NORMAL" },
        { id: 11, uuid: "std-11", workingName: "TD-2025-002_EXT" },
      ]),
    };
  if (call.path === "/api/patients")
    return { data: page([{ id: 1, barcode: "BUD-000001", firstName: "Anna", lastName: "Kovács" }]) };
  if (call.path === "/api/study-patients")
    return {
      data: page([
        {
          studyId: 10,
          studyUuid: "std-10",
          active: true,
          projectInternalCode: "ACRMDPHFL001",
          studyWorkingName: "TD-2025-001_NORMAL",
        },
      ]),
    };
  if (call.path === "/api/patient-visit-detail")
    return {
      data: {
        patient: {},
        study: {},
        visits: { 100: visitOption(100, "Screening"), 101: visitOption(101, "Week 2") },
      },
    };
  if (call.path === "/api/audit") return { data: { items: [] } };
}

const routes = [
  { path: "/protocol-deviations", element: <List /> },
  { path: "/protocol-deviations/create", element: <Form /> },
  { path: "/protocol-deviations/:itemId", element: <Detail /> },
  { path: "/protocol-deviations/:itemId/edit", element: <Form /> },
].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));

const listCalls = (calls: Call[]) =>
  calls.filter((c) => c.path === "/api/protocol-deviations" && c.method === "GET");

async function choose(u: ReturnType<typeof userEvent.setup>, field: string, option: string | RegExp) {
  await u.click(screen.getByRole("combobox", { name: field }));
  await u.click(await screen.findByRole("option", { name: option }));
}

const clicksTimeout = 20_000;

beforeEach(() => localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid));
afterEach(() => localStorage.clear());

describe("the deviations list (issue 43)", { timeout: clicksTimeout }, () => {
  it("lists the active site's deviations under the issue's columns, with no Remove", async () => {
    const calls = stubApi(server);
    renderRoutes(routes, ["/protocol-deviations"]);
    expect(await screen.findByRole("heading", { name: "Deviations" })).toBeInTheDocument();
    const table = await screen.findByRole("table", { name: "Deviations" });
    await within(table).findByText("Kovács Anna");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual([
      "Patient",
      "Study",
      "Visit",
      "Kind",
      "Days outside",
      "Detected",
      "Severity",
      "Status",
      "Actions",
    ]);
    const [, first, second] = within(table).getAllByRole("row");
    const cells = (row: HTMLElement) => Array.from(row.children, (c) => c.textContent).slice(0, 8);
    expect(cells(first)).toEqual([
      "BUD-000001Kovács Anna",
      "TD-2025-001_NORMAL",
      "Week 2",
      "Out of window",
      "+2 days",
      "2026-03-18",
      "Minor",
      "Open",
    ]);
    expect(cells(second)).toEqual([
      "BUD-000002Nagy László",
      "TD-2025-001_NORMAL",
      "—",
      "Informed consent",
      "",
      "2026-03-02",
      "Major",
      "ClosedNo longer applies",
    ]);
    expect(within(first).getByRole("link", { name: "View Out of window of Kovács Anna" })).toHaveAttribute(
      "href",
      "/protocol-deviations/dev-1",
    );
    // Never deleted: closed instead.
    expect(within(table).queryByRole("button", { name: /^Remove/ })).not.toBeInTheDocument();
    expect(listCalls(calls)[0].search.get("siteId")).toBe("7");
  });

  it("filters by status, kind and study, kept in the URL, and searches by patient", async () => {
    const calls = stubApi(server);
    const u = userEvent.setup();
    // The home tile's link: the open ones.
    const { router } = renderRoutes(routes, ["/protocol-deviations?status=OPEN"]);
    const filters = await screen.findByRole("group", { name: "Filters" });
    expect(within(filters).getByRole("combobox", { name: "Status" })).toHaveTextContent("Open");
    expect(within(filters).getByRole("combobox", { name: "Kind" })).toHaveTextContent("All");
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("status")).toBe("OPEN"));

    await choose(u, "Kind", "Missed visit");
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("kind")).toBe("MISSED_VISIT"));
    await choose(u, "Study", "TD-2025-002_EXT");
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("studyId")).toBe("11"));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      status: "OPEN",
      kind: "MISSED_VISIT",
      studyId: "11",
    });

    await choose(u, "Status", "All");
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.has("status")).toBe(false));
    expect(router.state.location.search).not.toContain("status");

    await u.type(screen.getByRole("searchbox", { name: "Search" }), "BUD-000002");
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("searchTerm")).toBe("BUD-000002"));
    expect(listCalls(calls).at(-1)?.search.get("kind")).toBe("MISSED_VISIT");
  });
});

describe("the deviation form (issue 43)", { timeout: clicksTimeout }, () => {
  it("shows what Trialdesk derived on an automatic deviation read-only, and never offers Withdrawn", async () => {
    const calls = stubApi(server);
    const u = userEvent.setup();
    renderRoutes(routes, ["/protocol-deviations/dev-1/edit"]);
    expect(await screen.findByRole("heading", { name: "Protocol deviation" })).toBeInTheDocument();
    const derived = {
      Kind: "Out of window",
      Patient: "Kovács Anna (BUD-000001)",
      Study: "TD-2025-001_NORMAL",
      Visit: "Week 2",
      "Days outside": "+2 days",
      "Detected on": "2026-03-18",
    };
    for (const [label, value] of Object.entries(derived)) {
      const field = await screen.findByRole("textbox", { name: label });
      expect(field).toHaveValue(value);
      expect(field).toHaveAttribute("readonly");
    }
    // No choosing of patient, study, visit or kind.
    for (const name of ["Patient", "Study", "Visit", "Kind"])
      expect(screen.queryByRole("combobox", { name })).not.toBeInTheDocument();

    await u.click(screen.getByRole("combobox", { name: "Status" }));
    const options = (await screen.findAllByRole("option")).map((o) => o.textContent);
    expect(options).toEqual(["Open", "Reported", "Closed"]);
    await u.click(screen.getByRole("option", { name: "Reported" }));

    // Reported needs its date.
    await saveWhenReady(u);
    expect(
      await screen.findByText("Reported on is required once the deviation is reported"),
    ).toBeInTheDocument();
    await u.type(screen.getByLabelText("Reported on"), "2026-03-20");
    await u.type(screen.getByLabelText("Corrective action"), "Reminder calls two days ahead");
    await saveWhenReady(u);
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    const put = calls.find((c) => c.method === "PUT");
    expect(put?.path).toBe("/api/protocol-deviations/dev-1");
    expect(put?.body).toMatchObject({
      id: 1,
      version: 3,
      kind: "OUT_OF_WINDOW",
      status: "REPORTED",
      reportedOn: "2026-03-20",
      correctiveAction: "Reminder calls two days ahead",
    });
  });

  it("keeps Withdrawn on a deviation Trialdesk already withdrew", async () => {
    stubApi((call) =>
      call.path === "/api/protocol-deviations/dev-1"
        ? { data: { ...automatic, status: "WITHDRAWN" } }
        : server(call),
    );
    const u = userEvent.setup();
    renderRoutes(routes, ["/protocol-deviations/dev-1/edit"]);
    await waitFor(() =>
      expect(screen.getByRole("combobox", { name: "Status" })).toHaveTextContent("Withdrawn"),
    );
    await u.click(screen.getByRole("combobox", { name: "Status" }));
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual([
      "Open",
      "Reported",
      "Closed",
      "Withdrawn",
    ]);
  });

  it("enters a deviation by hand: patient, study, optional visit and a kind staff may enter", async () => {
    const calls = stubApi(server);
    const u = userEvent.setup();
    renderRoutes(routes, ["/protocol-deviations/create"]);
    expect(await screen.findByRole("heading", { name: "New protocol deviation" })).toBeInTheDocument();
    await u.click(screen.getByRole("combobox", { name: "Kind" }));
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual([
      "Informed consent",
      "Eligibility",
      "Investigational product",
      "Procedure",
      "Other",
    ]);
    await u.click(screen.getByRole("option", { name: "Eligibility" }));
    await choose(u, "Patient", "Kovács Anna (BUD-000001)");
    await choose(u, "Study", /TD-2025-001_NORMAL/);
    await choose(u, "Visit", "Screening");
    await u.type(screen.getByLabelText("Description"), "Enrolled with an exclusion lab value");
    await choose(u, "Severity", "Major");
    // Closing asks for its date.
    await choose(u, "Status", "Closed");
    expect(screen.getByLabelText("Closed on")).toBeInTheDocument();
    await u.type(screen.getByLabelText("Closed on"), "2026-03-21");
    await saveWhenReady(u);
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    const post = calls.find((c) => c.method === "POST");
    expect(post?.body).toMatchObject({
      patientId: 1,
      studyId: 10,
      visitId: 100,
      kind: "ELIGIBILITY",
      description: "Enrolled with an exclusion lab value",
      severity: "MAJOR",
      status: "CLOSED",
      closedOn: "2026-03-21",
    });
    expect(post?.body).toHaveProperty("uuid", expect.stringMatching(/^dev-/));
  });
});

describe("the deviation detail (issue 43)", () => {
  it("shows every field in words, and the history", async () => {
    stubApi(server);
    renderRoutes(routes, ["/protocol-deviations/dev-1"]);
    expect(await screen.findByRole("heading", { name: "Protocol deviation" })).toBeInTheDocument();
    const value = (label: string) =>
      screen.getByText(label, { selector: "dt" }).nextElementSibling?.textContent;
    await screen.findByText("Kind", { selector: "dt" });
    expect(value("Patient")).toBe("Kovács Anna (BUD-000001)");
    expect(value("Kind")).toBe("Out of window");
    expect(value("Recorded")).toBe("Automatic");
    expect(value("Days outside")).toBe("+2 days");
    expect(value("Severity")).toBe("Minor");
    expect(value("Status")).toBe("Open");
    expect(value("Reported on")).toBe("—");
    expect(await screen.findByRole("heading", { name: "History" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Remove/ })).not.toBeInTheDocument();
  });
});
