import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  financeMessages,
  formatMinor,
  type Payment,
  type SignedInUser,
  type SiteOption,
  type Statement,
  toIsoDate,
  toMinor,
} from "@trialdesk/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../../app/site";
import {
  type ApiHandler,
  type Call,
  defaultUser,
  fieldRefusal,
  renderRoutes,
  saveWhenReady,
  signedInAs,
  stubApi,
} from "../../screens/test-utils";
import { Detail, Form, List } from "./payment-screens";

const site = { id: 7, uuid: "sit-7", code: "BUD", shortName: "Budapest", city: "Budapest" } as SiteOption;
/** A coordinator of the Budapest site. */
const coordinator: SignedInUser = { ...defaultUser, isAdmin: false, siteIds: [7], kind: "user" };

const page = (items: object[]) => ({ items, pagination: { page: 1, pageSize: 20, total: items.length } });

const projects = [
  { id: 3, uuid: "prj-3", workingName: "Heart study", siteIds: [7], finance: { currency: "EUR" } },
];

const statement = (over: Partial<Statement>): Statement => ({
  id: 1,
  uuid: "stm-1",
  version: 2,
  projectId: 3,
  projectName: "Heart study",
  siteId: 7,
  siteCode: "BUD",
  periodTo: "2026-11-30",
  statementDate: "2026-12-01",
  dueDate: "2027-01-15",
  currency: "EUR",
  vatPercent: 27,
  paymentDays: 45,
  paidPercentage: 80,
  net: "1776.00",
  vat: "479.52",
  gross: "2255.52",
  paid: "0.00",
  open: "2255.52",
  status: "SENT",
  externalInvoiceNumber: null,
  closeOut: false,
  writtenOff: "0.00",
  writeOffReason: null,
  ...over,
});
/** The worked example's statement, and an older one paid in part. */
const statements = [
  statement({}),
  statement({
    id: 2,
    uuid: "stm-2",
    statementDate: "2026-09-01",
    periodTo: "2026-08-31",
    dueDate: "2026-10-16",
    net: "393.70",
    vat: "106.30",
    gross: "500.00",
    paid: "300.00",
    open: "200.00",
    status: "PARTIALLY_PAID",
  }),
  statement({ id: 3, uuid: "stm-3", statementDate: "2026-06-01", status: "PAID", open: "0.00" }),
];

const payment = (over: Partial<Payment> = {}): Payment => ({
  id: 60,
  uuid: "pay-60",
  version: 1,
  projectId: 3,
  projectName: "Heart study",
  siteId: 7,
  siteCode: "BUD",
  receivedDate: "2027-01-20",
  currency: "EUR",
  amount: "2000.00",
  reference: "SWIFT 4711",
  allocated: "2000.00",
  unapplied: "0.00",
  allocations: [{ statementId: 1, statementUuid: "stm-1", amount: "2000.00" }],
  ...over,
});

/**
 * A small server: the statements by status, payments kept as recorded (the first save refused on
 * the second allocation, as when another payment took the statement's open amount meanwhile).
 */
function paymentServer(options: { refuseFirst?: boolean; statements?: Statement[] } = {}) {
  const shown = options.statements ?? statements;
  const kept = new Map<string, Payment>([["pay-60", payment()]]);
  let refuse = options.refuseFirst ?? false;
  const handler: ApiHandler = (call: Call) => {
    if (call.path === "/api/me/sites") return { data: { items: [site] } };
    if (call.path === "/api/projects") return { data: page(projects) };
    if (call.path === "/api/audit") return { data: { items: [] } };
    if (call.path === "/api/statements")
      return { data: page(shown.filter((s) => s.status === call.search.get("status"))) };
    if (call.path === "/api/payments" && call.method === "GET") return { data: page([...kept.values()]) };
    if (call.path === "/api/payments" && call.method === "POST") {
      if (refuse) {
        refuse = false;
        return fieldRefusal("allocations.1.amount", financeMessages.beyondOpen);
      }
      const body = call.body as Payment;
      const allocated = body.allocations.reduce((sum, a) => sum + toMinor(a.amount, "EUR"), 0n);
      const made: Payment = {
        ...body,
        id: 61,
        version: 1,
        projectName: "Heart study",
        siteCode: "BUD",
        currency: "EUR",
        allocated: formatMinor(allocated, "EUR"),
        unapplied: formatMinor(toMinor(body.amount, "EUR") - allocated, "EUR"),
      };
      kept.set(made.uuid, made);
      return { status: 201, data: made };
    }
    const found = kept.get(call.path.split("/")[3]);
    if (found && call.method === "PUT") {
      const body = call.body as Payment;
      const changed = { ...found, ...body, version: found.version + 1 };
      kept.set(found.uuid, changed);
      return { data: changed };
    }
    if (found) return { data: found };
  };
  return handler;
}

const routes = [
  { path: "/payments", element: <List /> },
  { path: "/payments/create", element: <Form /> },
  { path: "/payments/:itemId", element: <Detail /> },
  { path: "/payments/:itemId/edit", element: <Form /> },
].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));

const cells = (row: HTMLElement) => Array.from(row.children, (c) => c.textContent);
const posts = (calls: Call[]) => calls.filter((c) => c.method === "POST");
const allocation = (date: string) =>
  screen.getByRole("textbox", { name: `Allocation to the statement of ${date}` });
const rowOf = (date: string) => allocation(date).closest("tr") as HTMLElement;
/** The Allocated and Unapplied amounts below the statements. */
const totals = () => {
  const list = screen.getByLabelText("Allocation totals", { selector: "dl" });
  return Object.fromEntries(
    within(list)
      .getAllByRole("term")
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
  );
};

beforeEach(() => localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid));
afterEach(() => localStorage.clear());

describe("the payments list (issue 45)", () => {
  it("lists the active site's payments with what is allocated and unapplied", async () => {
    const calls = stubApi(signedInAs(coordinator, paymentServer()));
    renderRoutes(routes, ["/payments"]);
    expect(await screen.findByRole("heading", { name: "Payments" })).toBeInTheDocument();
    const table = await screen.findByRole("table", { name: "Payments" });
    await within(table).findByText("SWIFT 4711");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Received date", "Project", "Amount", "Allocated", "Unapplied", "Reference", "Actions"]);
    expect(cells(within(table).getAllByRole("row")[1]).slice(0, 6)).toEqual([
      "2027-01-20",
      "Heart study",
      "2,000.00 EUR",
      "2,000.00 EUR",
      "0.00 EUR",
      "SWIFT 4711",
    ]);
    expect(screen.getByRole("button", { name: "Add" })).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/api/payments")?.search.get("siteId")).toBe("7");
  });
});

describe("recording a payment (issue 45)", { timeout: 30_000 }, () => {
  it("allocates it to the open statements, adds up the unapplied rest and shows each row's error", async () => {
    const calls = stubApi(signedInAs(coordinator, paymentServer({ refuseFirst: true })));
    const u = userEvent.setup();
    const { router } = renderRoutes(routes, ["/payments/create"]);
    expect(await screen.findByRole("heading", { name: "Record payment" })).toBeInTheDocument();
    expect(screen.getByLabelText("Received date")).toHaveValue(toIsoDate(new Date()));
    expect(
      screen.getByText("Choose the project to see its open statements at the site."),
    ).toBeInTheDocument();

    await u.click(screen.getByRole("combobox", { name: "Project" }));
    await u.click(await screen.findByRole("option", { name: "Heart study" }));
    // The open statements of the project at the site, the oldest due first; none paid in full.
    const table = await screen.findByRole("table", { name: "Open statements" });
    const statementCalls = calls.filter((c) => c.path === "/api/statements");
    expect(statementCalls.map((c) => c.search.get("status")).sort()).toEqual(["PARTIALLY_PAID", "SENT"]);
    expect(
      statementCalls.every((c) => c.search.get("projectId") === "3" && c.search.get("siteId") === "7"),
    ).toBe(true);
    expect(
      within(table)
        .getAllByRole("row")
        .slice(1)
        .map((row) => cells(row).slice(0, 5)),
    ).toEqual([
      ["2026-09-01", "2026-10-16", "Partially paidOverdue", "500.00 EUR", "200.00 EUR"],
      ["2026-12-01", "2027-01-15", expect.stringMatching(/^Sent/), "2,255.52 EUR", "2,255.52 EUR"],
    ]);

    await u.clear(screen.getByLabelText("Received date"));
    await u.type(screen.getByLabelText("Received date"), "2027-01-20");
    await u.type(screen.getByLabelText("Amount"), "2000.00");
    await u.type(screen.getByLabelText("Reference"), "SWIFT 4711");
    expect(totals()).toEqual({ Allocated: "0.00 EUR", Unapplied: "2,000.00 EUR" });

    // The rest, up to what each statement has open.
    await u.click(within(rowOf("2026-09-01")).getByRole("button", { name: "Allocate the rest" }));
    expect(allocation("2026-09-01")).toHaveValue("200.00");
    expect(totals()).toEqual({ Allocated: "200.00 EUR", Unapplied: "1,800.00 EUR" });
    await u.click(within(rowOf("2026-12-01")).getByRole("button", { name: "Allocate the rest" }));
    expect(allocation("2026-12-01")).toHaveValue("1800.00");
    expect(totals()).toEqual({ Allocated: "2,000.00 EUR", Unapplied: "0.00 EUR" });
    // Nothing left to allocate.
    expect(within(rowOf("2026-12-01")).getByRole("button", { name: "Allocate the rest" })).toBeDisabled();

    // More than the payment, and more than a statement has open: refused before anything is sent.
    await u.clear(allocation("2026-12-01"));
    await u.type(allocation("2026-12-01"), "1900");
    expect(totals()).toEqual({ Allocated: "2,100.00 EUR", Unapplied: "-100.00 EUR" });
    expect(screen.getByText(financeMessages.beyondPayment)).toHaveAttribute("role", "status");
    await u.clear(allocation("2026-09-01"));
    await u.type(allocation("2026-09-01"), "250");
    await saveWhenReady(u);
    expect(allocation("2026-09-01")).toHaveAccessibleDescription(financeMessages.beyondOpen);
    expect(screen.getAllByRole("alert").some((a) => a.textContent === financeMessages.beyondPayment)).toBe(
      true,
    );
    expect(posts(calls)).toHaveLength(0);

    await u.clear(allocation("2026-09-01"));
    await u.type(allocation("2026-09-01"), "200");
    await u.clear(allocation("2026-12-01"));
    await u.type(allocation("2026-12-01"), "1700.00");
    expect(totals()).toEqual({ Allocated: "1,900.00 EUR", Unapplied: "100.00 EUR" });
    await saveWhenReady(u);
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].body).toEqual({
      uuid: expect.stringMatching(/^pay-/),
      projectId: 3,
      siteId: 7,
      receivedDate: "2027-01-20",
      amount: "2000.00",
      reference: "SWIFT 4711",
      allocations: [
        { statementId: 2, statementUuid: "stm-2", amount: "200" },
        { statementId: 1, statementUuid: "stm-1", amount: "1700.00" },
      ],
    });
    // The server's word on the second allocation, on its row.
    await waitFor(() =>
      expect(allocation("2026-12-01")).toHaveAccessibleDescription(financeMessages.beyondOpen),
    );
    expect(allocation("2026-09-01")).not.toHaveAccessibleDescription(financeMessages.beyondOpen);

    await saveWhenReady(u);
    await waitFor(() => expect(posts(calls)).toHaveLength(2));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/payments\/pay-/));
    expect(await screen.findByRole("heading", { name: "Payment" })).toBeInTheDocument();
    expect((await screen.findByText("Unapplied")).nextElementSibling).toHaveTextContent("100.00 EUR");
    const allocations = await screen.findByRole("table", { name: "Allocations" });
    expect(
      within(allocations)
        .getAllByRole("row")
        .slice(1)
        .map((row) => cells(row)),
    ).toEqual([
      ["Statement 2", "200.00 EUR"],
      ["Statement 1", "1,700.00 EUR"],
    ]);
  });

  it("allocates an unapplied credit later, the statement it paid taking it again", async () => {
    // The worked example's statement, paid 2,000.00 by this payment: 255.52 open.
    const paidInPart = statement({ status: "PARTIALLY_PAID", paid: "2000.00", open: "255.52" });
    const calls = stubApi(paymentServer({ statements: [paidInPart, statements[1], statements[2]] }));
    const u = userEvent.setup();
    renderRoutes(routes, ["/payments/pay-60/edit"]);
    const table = await screen.findByRole("table", { name: "Open statements" });
    await within(table).findByText("2026-12-01");
    // What this payment gave the statement is open to it again; the statements paid in full by others stay out.
    expect(cells(rowOf("2026-12-01")).slice(0, 5)).toEqual([
      "2026-12-01",
      "2027-01-15",
      expect.stringMatching(/^Partially paid/),
      "2,255.52 EUR",
      "2,255.52 EUR",
    ]);
    expect(within(table).queryByText("2026-06-01")).not.toBeInTheDocument();
    expect(allocation("2026-12-01")).toHaveValue("2000.00");
    expect(screen.getByLabelText("Project")).toHaveValue("Heart study");
    await u.clear(allocation("2026-12-01"));
    await u.type(allocation("2026-12-01"), "1800.00");
    await u.type(allocation("2026-09-01"), "200.00");
    expect(totals()).toEqual({ Allocated: "2,000.00 EUR", Unapplied: "0.00 EUR" });
    await saveWhenReady(u);
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({
      id: 60,
      version: 1,
      allocations: [
        { statementId: 1, statementUuid: "stm-1", amount: "1800.00" },
        { statementId: 2, statementUuid: "stm-2", amount: "200.00" },
      ],
    });
  });
});
