import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  financeMessages,
  formatMinor,
  type SignedInUser,
  type SiteOption,
  type Statement,
  type StatementLine,
  statementTotals,
  toIsoDate,
  toMinor,
} from "@trialdesk/domain";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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
import { Detail, Form, List } from "./statement-screens";

const site = { id: 7, uuid: "sit-7", code: "BUD", shortName: "Budapest", city: "Budapest" } as SiteOption;
/** A coordinator of the Budapest site. */
const coordinator: SignedInUser = { ...defaultUser, isAdmin: false, siteIds: [7], kind: "user" };

const page = (items: object[]) => ({ items, pagination: { page: 1, pageSize: 20, total: items.length } });

const projects = [
  { id: 3, uuid: "prj-3", workingName: "Heart study", siteIds: [7], finance: { currency: "EUR" } },
  { id: 4, uuid: "prj-4", workingName: "Vienna only study", siteIds: [9], finance: { currency: "EUR" } },
];

/** The worked example: six billable visits of 370.00 EUR, 80 % payable → 296.00 each. */
const earningLines: StatementLine[] = [3, 10, 17, 24, 25, 26].map((day, index) => ({
  id: index + 1,
  earningUuid: `ern-${index + 1}`,
  description: `BUD-00000${index + 1} Week 2`,
  serviceDate: `2026-11-${String(day).padStart(2, "0")}`,
  amount: "296.00",
  heldBack: false,
}));

const statement = (over: Partial<Statement> = {}): Statement & { createdAt: string } => ({
  id: 40,
  uuid: "stm-40",
  version: 1,
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
  status: "DRAFT",
  externalInvoiceNumber: null,
  closeOut: false,
  writtenOff: "0.00",
  writeOffReason: null,
  lines: earningLines,
  // A field the record is read with that a save never sends back.
  createdAt: "2026-12-01T09:00:00Z",
  ...over,
});

/**
 * A small server keeping statements: POST prepares a draft of the billable earnings up to Period to
 * (none before November), PUT moves the status or sets the invoice number, POST lines adds a manual
 * line to a draft and adds up the totals again in minor units.
 */
function statementServer(start: Statement[] = [statement()], refuseVoid = false) {
  const kept = new Map(start.map((s) => [s.uuid, s]));
  const handler: ApiHandler = (call: Call) => {
    if (call.path === "/api/me/sites") return { data: { items: [site] } };
    if (call.path === "/api/projects") return { data: page(projects) };
    if (call.path === "/api/sites") return { data: page([{ id: 7, code: "BUD", shortName: "Budapest" }]) };
    if (call.path === "/api/audit") return { data: { items: [] } };
    if (call.path === "/api/statements" && call.method === "GET") {
      const status = call.search.get("status");
      return { data: page([...kept.values()].filter((s) => !status || s.status === status)) };
    }
    if (call.path === "/api/statements" && call.method === "POST") {
      const body = call.body as { uuid: string; periodTo: string; statementDate: string };
      if (body.periodTo < "2026-11-01") return fieldRefusal("periodTo", financeMessages.nothingBillable);
      const made = statement({ ...body, id: 41, dueDate: "2027-01-15" });
      kept.set(made.uuid, made);
      return { status: 201, data: made };
    }
    const uuid = call.path.split("/")[3];
    const current = kept.get(uuid);
    if (!current) return undefined;
    if (call.path.endsWith("/lines") && call.method === "POST") {
      const line = call.body as { description: string; amount: string };
      const lines = [
        ...(current.lines ?? []),
        { id: 99, earningUuid: null, serviceDate: null, heldBack: false, ...line },
      ];
      const totals = statementTotals(
        lines.map((l) => toMinor(l.amount, "EUR")),
        current.vatPercent,
      );
      const text = (minor: bigint) => formatMinor(minor, "EUR");
      const changed = {
        ...current,
        version: current.version + 1,
        lines,
        net: text(totals.net),
        vat: text(totals.vat),
        gross: text(totals.gross),
        open: text(totals.gross),
      };
      kept.set(uuid, changed);
      return { status: 201, data: changed };
    }
    if (call.path.endsWith("/write-off") && call.method === "POST") {
      const { reason } = call.body as { reason: string };
      const changed = {
        ...current,
        writtenOff: current.open,
        writeOffReason: reason,
        open: "0.00",
        status: "PAID" as const,
      };
      kept.set(uuid, changed);
      return { data: changed };
    }
    if (call.method === "PUT") {
      const body = call.body as Statement;
      if (body.status === "VOID" && refuseVoid)
        return { status: 409, errorMessage: financeMessages.statementWithPayments };
      // The answer of a save carries no lines; the screen keeps those it shows.
      const { lines: _lines, ...rest } = {
        ...current,
        status: body.status,
        externalInvoiceNumber: body.externalInvoiceNumber,
        version: current.version + 1,
      };
      kept.set(uuid, { ...rest, lines: current.lines });
      return { data: rest };
    }
    return { data: current };
  };
  return { handler, kept };
}

const routes = [
  { path: "/statements", element: <List /> },
  { path: "/statements/create", element: <Form /> },
  { path: "/statements/:itemId", element: <Detail /> },
  { path: "/statements/:itemId/edit", element: <Form /> },
].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));

const listCalls = (calls: Call[]) => calls.filter((c) => c.path === "/api/statements" && c.method === "GET");
const puts = (calls: Call[]) => calls.filter((c) => c.method === "PUT");
const cells = (row: HTMLElement) => Array.from(row.children, (c) => c.textContent);

/** The totals below the lines, as label → amount. */
const totalsOf = () => {
  const totals = screen.getByLabelText("Totals", { selector: "dl" });
  return Object.fromEntries(
    within(totals)
      .getAllByRole("term")
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
  );
};

beforeEach(() => localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid));
afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe("the statements list (issue 45)", { timeout: 20_000 }, () => {
  it("lists the active site's statements with their amounts and status, chips in the URL", async () => {
    const { handler } = statementServer([
      statement({ status: "SENT", externalInvoiceNumber: "INV-2026-118" }),
      statement({
        id: 41,
        uuid: "stm-41",
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
    ]);
    const calls = stubApi(signedInAs(coordinator, handler));
    const u = userEvent.setup();
    const { router } = renderRoutes(routes, ["/statements?status=SENT"]);
    expect(await screen.findByRole("heading", { name: "Statements" })).toBeInTheDocument();
    const table = await screen.findByRole("table", { name: "Statements" });
    await within(table).findByText("INV-2026-118");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual([
      "Statement date",
      "Project",
      "Period to",
      "Net",
      "VAT",
      "Gross",
      "Open",
      "Due date",
      "Status",
      "External invoice number",
      "Actions",
    ]);
    expect(cells(within(table).getAllByRole("row")[1]).slice(0, 10)).toEqual([
      "2026-12-01",
      "Heart study",
      "2026-11-30",
      "1,776.00 EUR",
      "479.52 EUR",
      "2,255.52 EUR",
      "2,255.52 EUR",
      "2027-01-15",
      // Overdue too once the test runs after 15 Jan 2027.
      expect.stringMatching(/^Sent/),
      "INV-2026-118",
    ]);
    expect(screen.getByRole("button", { name: "Sent" })).toHaveAttribute("aria-pressed", "true");
    expect(listCalls(calls)[0].search.get("status")).toBe("SENT");
    expect(listCalls(calls)[0].search.get("siteId")).toBe("7");
    // Statements are prepared here (Add), never removed.
    expect(screen.getByRole("button", { name: "Add" })).toBeInTheDocument();
    expect(within(table).queryByRole("button", { name: /^Remove/ })).not.toBeInTheDocument();

    await u.click(screen.getByRole("button", { name: "All" }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.has("status")).toBe(false));
    expect(router.state.location.search).toBe("");
    // Past its due date with money open: overdue.
    const late = (await within(table).findByText("2026-09-01")).closest("tr") as HTMLElement;
    expect(cells(late)[8]).toBe("Partially paidOverdue");
  });
});

describe("a new statement (issue 45)", { timeout: 20_000 }, () => {
  it("is prepared from the billable earnings up to Period to, then shows its lines and totals", async () => {
    const { handler } = statementServer([]);
    const calls = stubApi(signedInAs(coordinator, handler));
    const u = userEvent.setup();
    const { router } = renderRoutes(routes, ["/statements/create"]);
    expect(await screen.findByRole("heading", { name: "New statement" })).toBeInTheDocument();
    expect(
      screen.getByText(/Every billable earning of the active site up to Period to goes on it/),
    ).toBeInTheDocument();
    // Staff prepare the active site's statements.
    expect(screen.getByLabelText("Site")).toHaveValue("BUD - Budapest");
    expect(screen.getByLabelText("Site")).toHaveAttribute("readonly");
    expect(screen.getByLabelText("Statement date")).toHaveValue(toIsoDate(new Date()));

    // Only the projects of the site.
    await u.click(screen.getByRole("combobox", { name: "Project" }));
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual(["Heart study"]);
    await u.click(screen.getByRole("option", { name: "Heart study" }));
    await u.type(screen.getByLabelText("Period to"), "2026-10-31");
    await u.clear(screen.getByLabelText("Statement date"));
    await u.type(screen.getByLabelText("Statement date"), "2026-12-01");
    await saveWhenReady(u);
    // Nothing billable by then: the server says so on Period to.
    await waitFor(() =>
      expect(screen.getByLabelText("Period to")).toHaveAccessibleDescription(financeMessages.nothingBillable),
    );

    await u.clear(screen.getByLabelText("Period to"));
    await u.type(screen.getByLabelText("Period to"), "2026-11-30");
    await saveWhenReady(u);
    await waitFor(() => expect(calls.filter((c) => c.method === "POST")).toHaveLength(2));
    const sent = calls.filter((c) => c.method === "POST").at(-1)?.body as Record<string, unknown>;
    expect(sent).toEqual({
      uuid: expect.stringMatching(/^stm-/),
      projectId: 3,
      siteId: 7,
      periodTo: "2026-11-30",
      statementDate: "2026-12-01",
      closeOut: false,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/statements/${sent.uuid}`));
    expect(await screen.findByText("Statement prepared")).toBeInTheDocument();

    const lines = await screen.findByRole("table", { name: "Lines" });
    const rows = within(lines).getAllByRole("row");
    expect(rows).toHaveLength(7);
    expect(cells(rows[1])).toEqual(["2026-11-03", "BUD-000001 Week 2", "296.00 EUR"]);
    expect(totalsOf()).toEqual({
      Net: "1,776.00 EUR",
      "VAT (27 %)": "479.52 EUR",
      Gross: "2,255.52 EUR",
      Paid: "0.00 EUR",
      Open: "2,255.52 EUR",
    });
    expect(screen.getByText("Due date").nextElementSibling).toHaveTextContent("2027-01-15");
    expect(screen.getByText("Status").nextElementSibling).toHaveTextContent("Draft");
  });

  it("lets an administrator choose the site, the active one unless changed", async () => {
    const { handler } = statementServer([]);
    const calls = stubApi(handler);
    const u = userEvent.setup();
    renderRoutes(routes, ["/statements/create"]);
    expect(await screen.findByRole("heading", { name: "New statement" })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("combobox", { name: "Site" })).toHaveTextContent("BUD - Budapest"),
    );
    await u.click(screen.getByRole("combobox", { name: "Project" }));
    await u.click(await screen.findByRole("option", { name: "Heart study" }));
    await u.type(screen.getByLabelText("Period to"), "2026-11-30");
    await u.clear(screen.getByLabelText("Statement date"));
    await u.type(screen.getByLabelText("Statement date"), "2026-12-01");
    await saveWhenReady(u);
    await waitFor(() => expect(calls.filter((c) => c.method === "POST")).toHaveLength(1));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({ projectId: 3, siteId: 7 });
  });
});

describe("a statement (issue 45)", { timeout: 20_000 }, () => {
  it("is sent only once confirmed, and then offers no Send and no Add line", async () => {
    const { handler } = statementServer();
    const calls = stubApi(handler);
    const u = userEvent.setup();
    renderRoutes(routes, ["/statements/stm-40"]);
    expect(await screen.findByRole("heading", { name: "Statement" })).toBeInTheDocument();
    await screen.findByRole("table", { name: "Lines" });
    await u.click(screen.getByRole("button", { name: "Send" }));
    let dialog = await screen.findByRole("dialog", { name: "Send statement" });
    expect(dialog).toHaveTextContent(financeMessages.statementSent);
    await u.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(puts(calls)).toHaveLength(0);

    await u.click(screen.getByRole("button", { name: "Send" }));
    dialog = await screen.findByRole("dialog", { name: "Send statement" });
    await u.click(within(dialog).getByRole("button", { name: "Send" }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    const put = puts(calls)[0];
    expect(put.path).toBe("/api/statements/stm-40");
    // The record back with the status: what the schema takes, nothing it does not (createdAt).
    expect(put.body).toMatchObject({
      id: 40,
      uuid: "stm-40",
      version: 1,
      status: "SENT",
      periodTo: "2026-11-30",
    });
    expect(put.body).not.toHaveProperty("createdAt");
    expect(await screen.findByText("Statement sent")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText("Status").nextElementSibling).toHaveTextContent("Sent"));
    expect(screen.queryByRole("button", { name: "Send" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add line" })).not.toBeInTheDocument();
    // The lines stay in view though the answer of the save carried none.
    expect(within(screen.getByRole("table", { name: "Lines" })).getAllByRole("row")).toHaveLength(7);
    expect(screen.getByRole("button", { name: "Void" })).toBeInTheDocument();
  });

  it("takes a manual line while a draft, a credit too, checked before it is sent", async () => {
    const { handler } = statementServer();
    const calls = stubApi(handler);
    const u = userEvent.setup();
    renderRoutes(routes, ["/statements/stm-40"]);
    await screen.findByRole("table", { name: "Lines" });
    await u.click(screen.getByRole("button", { name: "Add line" }));
    expect(screen.getByLabelText("Description")).toHaveAccessibleDescription(
      financeMessages.descriptionRequired,
    );
    expect(screen.getByLabelText("Amount")).toHaveAccessibleDescription(
      expect.stringContaining(financeMessages.amountRequired),
    );
    await u.type(screen.getByLabelText("Description"), "Credit for a repeated lab test");
    await u.type(screen.getByLabelText("Amount"), "-50.005");
    await u.click(screen.getByRole("button", { name: "Add line" }));
    expect(screen.getByLabelText("Amount")).toHaveAccessibleDescription(
      expect.stringContaining("Must be an amount such as 1250.00"),
    );
    expect(calls.filter((c) => c.path.endsWith("/lines"))).toHaveLength(0);

    await u.clear(screen.getByLabelText("Amount"));
    await u.type(screen.getByLabelText("Amount"), "-50.00");
    await u.click(screen.getByRole("button", { name: "Add line" }));
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith("/lines"))).toHaveLength(1));
    expect(calls.find((c) => c.path.endsWith("/lines"))?.body).toEqual({
      description: "Credit for a repeated lab test",
      amount: "-50.00",
    });
    const lines = screen.getByRole("table", { name: "Lines" });
    const credit = (await within(lines).findByText("Credit for a repeated lab test")).closest("tr");
    expect(cells(credit as HTMLElement)).toEqual(["", "Credit for a repeated lab test", "-50.00 EUR"]);
    expect(totalsOf()).toMatchObject({
      Net: "1,726.00 EUR",
      "VAT (27 %)": "466.02 EUR",
      Gross: "2,192.02 EUR",
    });
    expect(screen.getByLabelText("Description")).toHaveValue("");
  });

  it("records the external invoice number with Save", async () => {
    const { handler } = statementServer([statement({ status: "SENT" })]);
    const calls = stubApi(handler);
    const u = userEvent.setup();
    renderRoutes(routes, ["/statements/stm-40"]);
    const field = await screen.findByLabelText("External invoice number");
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
    await u.type(field, "INV-2026-118");
    await u.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0].body).toMatchObject({ status: "SENT", externalInvoiceNumber: "INV-2026-118" });
    expect(await screen.findByText("External invoice number saved")).toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.getByText("External invoice number", { selector: "dt" }).nextElementSibling,
      ).toHaveTextContent("INV-2026-118"),
    );
  });

  it("is voided once confirmed, or says why not", async () => {
    const { handler } = statementServer([statement({ status: "SENT" })], true);
    const calls = stubApi(handler);
    const u = userEvent.setup();
    renderRoutes(routes, ["/statements/stm-40"]);
    await screen.findByRole("table", { name: "Lines" });
    await u.click(screen.getByRole("button", { name: "Void" }));
    const dialog = await screen.findByRole("dialog", { name: "Void statement" });
    await u.click(within(dialog).getByRole("button", { name: "Void" }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0].body).toMatchObject({ status: "VOID" });
    expect(await screen.findByText(new RegExp(financeMessages.statementWithPayments))).toBeInTheDocument();
    expect(screen.getByText("Status").nextElementSibling).toHaveTextContent("Sent");
  });

  it("writes off the open rest of a short payment once a reason is given and it is confirmed", async () => {
    const { handler } = statementServer([
      statement({ status: "PARTIALLY_PAID", paid: "2000.00", open: "255.52" }),
    ]);
    const calls = stubApi(handler);
    const u = userEvent.setup();
    renderRoutes(routes, ["/statements/stm-40"]);
    await screen.findByRole("table", { name: "Lines" });
    const writeOffs = () => calls.filter((c) => c.path.endsWith("/write-off"));
    await u.click(screen.getByRole("button", { name: "Write off" }));
    expect(screen.getByLabelText("Reason for the write-off")).toHaveAccessibleDescription(
      expect.stringContaining(financeMessages.writeOffReasonRequired),
    );
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await u.type(screen.getByLabelText("Reason for the write-off"), "Bank charges of the sponsor");
    await u.click(screen.getByRole("button", { name: "Write off" }));
    const dialog = await screen.findByRole("dialog", { name: "Write off the open amount" });
    expect(dialog).toHaveTextContent("Write off 255.52 EUR?");
    await u.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(writeOffs()).toHaveLength(0);
    await u.click(screen.getByRole("button", { name: "Write off" }));
    await u.click(
      within(await screen.findByRole("dialog", { name: "Write off the open amount" })).getByRole("button", {
        name: "Write off",
      }),
    );
    await waitFor(() => expect(writeOffs()).toHaveLength(1));
    expect(writeOffs()[0].body).toEqual({ reason: "Bank charges of the sponsor" });
    expect(await screen.findByText("Open amount written off")).toBeInTheDocument();
    await waitFor(() => expect(totalsOf()).toMatchObject({ "Written off": "255.52 EUR", Open: "0.00 EUR" }));
    expect(screen.getByText("Write-off", { selector: "dt" }).nextElementSibling).toHaveTextContent(
      "Bank charges of the sponsor",
    );
    // Done once: the form is gone.
    expect(screen.queryByRole("button", { name: "Write off" })).not.toBeInTheDocument();
  });

  it("prints itself", async () => {
    const { handler } = statementServer();
    stubApi(handler);
    const print = vi.spyOn(window, "print").mockImplementation(() => {});
    const u = userEvent.setup();
    renderRoutes(routes, ["/statements/stm-40"]);
    await screen.findByRole("table", { name: "Lines" });
    await u.click(screen.getByRole("button", { name: "Print" }));
    expect(print).toHaveBeenCalledTimes(1);
  });
});
