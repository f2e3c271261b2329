import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Earning, SignedInUser, SiteOption } from "@trialdesk/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../../app/site";
import { type Call, defaultUser, renderRoutes, signedInAs, stubApi } from "../../screens/test-utils";
import { Detail, Form, List } from "./earning-screens";

const site = { id: 7, uuid: "sit-7", code: "BUD", shortName: "Budapest", city: "Budapest" } as SiteOption;
/** A coordinator of the Budapest site. */
const coordinator: SignedInUser = { ...defaultUser, isAdmin: false, siteIds: [7], kind: "user" };

const page = (items: object[]) => ({ items, pagination: { page: 1, pageSize: 20, total: items.length } });

/** The worked example: a fee of 1,850.00 EUR over 5 visits, 80 % paid during the study. */
const earning = (over: Partial<Earning>): Earning => ({
  id: 1,
  uuid: "ern-1",
  projectId: 3,
  projectName: "Heart study",
  siteId: 7,
  siteCode: "BUD",
  studyId: 10,
  patientId: 21,
  barcode: "BUD-000001",
  visitId: 101,
  visitName: "Week 2",
  patientVisitId: 55,
  patientVisitUuid: "pv-55",
  serviceDate: "2026-11-03",
  currency: "EUR",
  amount: "370.00",
  heldBack: "74.00",
  payable: "296.00",
  state: "ON_STATEMENT",
  reversal: false,
  statementId: 40,
  statementUuid: "stm-40",
  ...over,
});
const rows = [
  earning({}),
  earning({
    id: 2,
    uuid: "ern-2",
    barcode: "BUD-000002",
    visitName: "Week 4",
    serviceDate: "2026-11-20",
    amount: "1850",
    heldBack: "370",
    payable: "1480",
    state: "AWAITING_VERIFICATION",
    statementId: null,
    statementUuid: null,
  }),
];

const projects = [
  { id: 3, uuid: "prj-3", workingName: "Heart study", siteIds: [7, 9], finance: { currency: "EUR" } },
  { id: 4, uuid: "prj-4", workingName: "Vienna only study", siteIds: [9], finance: { currency: "EUR" } },
  { id: 5, uuid: "prj-5", workingName: "Kidney study", siteIds: [7], finance: { currency: "HUF" } },
];

const summary = {
  currency: "EUR",
  earned: "2220.00",
  heldBack: "444.00",
  awaitingVerification: "370.00",
  unbilled: "0.00",
  billed: "2255.52",
  received: "2000.00",
  open: "255.52",
};

function server(call: Call) {
  if (call.path === "/api/me/sites") return { data: { items: [site] } };
  if (call.path === "/api/earnings") return { data: page(rows) };
  if (call.path === "/api/earnings/ern-1") return { data: earning({}) };
  if (call.path === "/api/projects") return { data: page(projects) };
  if (call.path === "/api/finance/summary") return { data: summary };
  if (call.path === "/api/audit") return { data: { items: [] } };
}

const routes = [
  { path: "/earnings", element: <List /> },
  { path: "/earnings/create", element: <Form /> },
  { path: "/earnings/:itemId", element: <Detail /> },
  { path: "/earnings/:itemId/edit", element: <Form /> },
].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));

const listCalls = (calls: Call[]) => calls.filter((c) => c.path === "/api/earnings");
const summaryCalls = (calls: Call[]) => calls.filter((c) => c.path === "/api/finance/summary");
const cells = (row: HTMLElement) => Array.from(row.children, (c) => c.textContent);

beforeEach(() => localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid));
afterEach(() => localStorage.clear());

describe("the earnings list (issue 45)", { timeout: 20_000 }, () => {
  it("lists the active site's earnings with their amounts, state and statement, and offers no Add", async () => {
    const calls = stubApi(signedInAs(coordinator, server));
    renderRoutes(routes, ["/earnings"]);
    expect(await screen.findByRole("heading", { name: "Earnings" })).toBeInTheDocument();
    const table = await screen.findByRole("table", { name: "Earnings" });
    await within(table).findByText("BUD-000001");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual([
      "Service date",
      "Patient",
      "Visit",
      "Project",
      "Amount",
      "Held back",
      "Payable",
      "State",
      "Statement",
      "Actions",
    ]);
    const [, first, second] = within(table).getAllByRole("row");
    expect(cells(first).slice(0, 9)).toEqual([
      "2026-11-03",
      "BUD-000001",
      "Week 2",
      "Heart study",
      "370.00 EUR",
      "74.00 EUR",
      "296.00 EUR",
      "On statement",
      "View statement",
    ]);
    // Whole amounts are shown in the currency's digits, grouped.
    expect(cells(second).slice(4, 9)).toEqual([
      "1,850.00 EUR",
      "370.00 EUR",
      "1,480.00 EUR",
      "Awaiting verification",
      "",
    ]);
    expect(within(first).getByRole("link", { name: "View statement" })).toHaveAttribute(
      "href",
      "/statements/stm-40",
    );
    // Written by Trialdesk alone: no Add, Edit or Remove.
    expect(screen.queryByRole("button", { name: "Add" })).not.toBeInTheDocument();
    expect(within(table).queryByRole("link", { name: /^Edit/ })).not.toBeInTheDocument();
    expect(listCalls(calls)[0].search.get("siteId")).toBe("7");
    // The totals wait for a project.
    expect(screen.getByText("Choose a project to see its totals at this site.")).toBeInTheDocument();
    expect(summaryCalls(calls)).toHaveLength(0);
  });

  it("shows the chosen project's totals at the site and filters by project, state and period in the URL", async () => {
    const calls = stubApi(signedInAs(coordinator, server));
    const u = userEvent.setup();
    const { router } = renderRoutes(routes, ["/earnings?projectId=3"]);
    const region = await screen.findByRole("region", { name: /^Totals/ });
    await within(region).findByText("2,220.00");
    expect(within(region).getByRole("heading")).toHaveTextContent("Totals (amounts in EUR)");
    const pairs = within(region)
      .getAllByRole("term")
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]);
    expect(pairs).toEqual([
      ["Earned", "2,220.00"],
      ["Held back", "444.00"],
      ["Awaiting verification", "370.00"],
      ["Billable not yet billed", "0.00"],
      ["Billed", "2,255.52"],
      ["Received", "2,000.00"],
      ["Open", "255.52"],
    ]);
    expect(Object.fromEntries(summaryCalls(calls)[0].search)).toEqual({ projectId: "3", siteId: "7" });
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("projectId")).toBe("3"));

    // The projects of the active site only.
    const filters = screen.getByRole("group", { name: "Filters" });
    await u.click(within(filters).getByRole("combobox", { name: "Project" }));
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual([
      "All",
      "Heart study",
      "Kidney study",
    ]);
    await u.click(screen.getByRole("option", { name: "Kidney study" }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("projectId")).toBe("5"));
    await waitFor(() => expect(summaryCalls(calls).at(-1)?.search.get("projectId")).toBe("5"));

    // State chips: one at a time, All leaves the URL.
    expect(screen.getByRole("button", { name: "All" })).toHaveAttribute("aria-pressed", "true");
    await u.click(screen.getByRole("button", { name: "Billable" }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("state")).toBe("BILLABLE"));
    expect(screen.getByRole("button", { name: "Billable" })).toHaveAttribute("aria-pressed", "true");

    // The service period: sent once a whole day is typed.
    await u.type(screen.getByLabelText("From"), "2026-11-01");
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("from")).toBe("2026-11-01"));
    await u.type(screen.getByLabelText("To"), "2026-11-30");
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("to")).toBe("2026-11-30"));
    expect(
      listCalls(calls).every((c) => !c.search.get("from") || c.search.get("from") === "2026-11-01"),
    ).toBe(true);
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      projectId: "5",
      state: "BILLABLE",
      from: "2026-11-01",
      to: "2026-11-30",
    });

    await u.click(screen.getByRole("button", { name: "All" }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.has("state")).toBe(false));
    expect(router.state.location.search).not.toContain("state");
  });
});

describe("an earning (issue 45)", () => {
  it("shows its amounts, state and statement, with no Edit", async () => {
    stubApi(signedInAs(coordinator, server));
    renderRoutes(routes, ["/earnings/ern-1"]);
    expect(await screen.findByRole("heading", { name: "Earning" })).toBeInTheDocument();
    const term = await screen.findByText("Held back");
    expect(term.nextElementSibling).toHaveTextContent("74.00 EUR");
    expect(screen.getByText("Payable").nextElementSibling).toHaveTextContent("296.00 EUR");
    expect(screen.getByText("State").nextElementSibling).toHaveTextContent("On statement");
    expect(screen.getByRole("link", { name: "Week 2" })).toHaveAttribute("href", "/patient-visits/pv-55");
    expect(screen.getByRole("link", { name: "View statement" })).toHaveAttribute(
      "href",
      "/statements/stm-40",
    );
    expect(screen.queryByRole("link", { name: "Edit" })).not.toBeInTheDocument();
  });

  it("is never entered: its create and edit routes lead to the list and the earning", async () => {
    stubApi(signedInAs(coordinator, server));
    const { router } = renderRoutes(routes, ["/earnings/create"]);
    await waitFor(() => expect(router.state.location.pathname).toBe("/earnings"));
    await router.navigate("/earnings/ern-1/edit");
    await waitFor(() => expect(router.state.location.pathname).toBe("/earnings/ern-1"));
  });
});
