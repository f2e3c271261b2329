import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { csrfHeader, type SignedInUser } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { type ApiHandler, type Call, renderRoutes, signedInAs, stubApi } from "../../screens/test-utils";
import { type SdvRow, SourceVerificationScreen } from "./source-verification-screen";

const monitor: SignedInUser = {
  id: 5,
  uuid: "mon-5",
  email: "monitor@example.com",
  profile: { firstName: "Mona", lastName: "Monitor" },
  isAdmin: false,
  siteIds: [],
  kind: "monitor",
};

const sdvRow = (over: Partial<SdvRow>): SdvRow => ({
  patientVisitId: 55,
  patientVisitUuid: "pv-55",
  barcode: "BUD-000001",
  screenNumber: "S-001",
  siteId: 7,
  studyId: 10,
  studyName: "TD-2025-001_NORMAL",
  visitName: "Week 2",
  visitDate: "2026-03-14",
  visitStatus: "COMPLETED",
  sdvStatus: "PENDING",
  sdvVerifiedAt: null,
  sdvVerifiedByName: null,
  openQueries: 0,
  ...over,
});

const initialRows = (): SdvRow[] => [
  sdvRow({}),
  sdvRow({
    patientVisitId: 56,
    patientVisitUuid: "pv-56",
    barcode: "BUD-000002",
    screenNumber: "S-002",
    visitName: "Screening",
    visitDate: "2026-03-02",
    sdvStatus: "REOPENED",
    sdvVerifiedAt: "2026-03-05T12:00:00Z",
    sdvVerifiedByName: "Mona Monitor",
    openQueries: 1,
  }),
  sdvRow({
    patientVisitId: 57,
    patientVisitUuid: "pv-57",
    barcode: "BUD-000003",
    screenNumber: "S-003",
    visitName: "Baseline",
    visitDate: "2026-02-20",
    sdvStatus: "VERIFIED",
    sdvVerifiedAt: "2026-03-01T12:00:00Z",
    sdvVerifiedByName: "Mona Monitor",
  }),
];

const page = (items: object[], total = items.length) => ({
  items,
  pagination: { page: 1, pageSize: 20, total },
});

/**
 * The monitor's source verification: rows filtered by the chosen state, and verification that turns a
 * PENDING or REOPENED visit VERIFIED (409 otherwise, or for the uuids in `refused`).
 */
function sdvServer(options: { refused?: string[]; rows?: SdvRow[] } = {}) {
  const rows = options.rows ?? initialRows();
  const handler: ApiHandler = (call: Call) => {
    if (call.path === "/api/me/sites") return { data: { items: [] } };
    if (call.path === "/api/studies")
      return {
        data: page([
          { id: 10, uuid: "std-10", workingName: "TD-2025-001_NORMAL" },
          { id: 11, uuid: "std-11", workingName: "TD-2025-002_EXT" },
        ]),
      };
    if (call.path === "/api/source-verification") {
      const status = call.search.get("sdvStatus");
      return { data: page(status ? rows.filter((r) => r.sdvStatus === status) : rows) };
    }
    const verification = /^\/api\/patient-visits\/(.+)\/verification$/.exec(call.path);
    if (verification && call.method === "POST") {
      const row = rows.find((r) => r.patientVisitUuid === verification[1]);
      if (!row) return { status: 404, errorMessage: "Patient visit not found" };
      if (options.refused?.includes(row.patientVisitUuid) || row.sdvStatus === "VERIFIED")
        return { status: 409, errorMessage: "Only a pending or reopened visit can be verified" };
      Object.assign(row, {
        sdvStatus: "VERIFIED",
        sdvVerifiedAt: "2026-03-20T12:00:00Z",
        sdvVerifiedByName: "Mona Monitor",
      });
      return { data: { id: row.patientVisitId, uuid: row.patientVisitUuid, ...row } };
    }
  };
  return stubApi(signedInAs(monitor, handler));
}

const routes = [
  { path: "/source-verification", element: <SourceVerificationScreen /> },
  { path: "/patient-visits/:itemId", element: <h1>Patient visit page</h1> },
];

const listCalls = (calls: Call[]) => calls.filter((c) => c.path === "/api/source-verification");
const verifications = (calls: Call[]) => calls.filter((c) => c.path.endsWith("/verification"));
const rowOf = (barcode: string) => screen.getByRole("cell", { name: barcode }).closest("tr") as HTMLElement;
const cells = (row: HTMLElement) => Array.from(row.children, (c) => c.textContent);

const clicksTimeout = 20_000;

describe("the source verification screen (issue 44)", { timeout: clicksTimeout }, () => {
  it("lists the visits to verify with their SDV state, who verified, open queries and the visit's link", async () => {
    const calls = sdvServer();
    renderRoutes(routes, ["/source-verification"]);
    expect(await screen.findByRole("heading", { name: "Source verification" })).toBeInTheDocument();
    const table = await screen.findByRole("table", { name: "Source verification" });
    await within(table).findByText("BUD-000001");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual([
      "Select all on this page",
      "Actions",
      "Barcode",
      "Screen Nr",
      "Study",
      "Visit",
      "Visit date",
      "Status",
      "SDV",
      "Verified by",
      "Open queries",
    ]);
    expect(cells(rowOf("BUD-000001")).slice(2, 11)).toEqual([
      "BUD-000001",
      "S-001",
      "TD-2025-001_NORMAL",
      "Week 2",
      "2026-03-14",
      "Completed",
      "Pending",
      "",
      "0",
    ]);
    expect(cells(rowOf("BUD-000002")).slice(8, 11)).toEqual(["Reopened", "Mona Monitor2026-03-05", "1"]);
    expect(cells(rowOf("BUD-000003"))[8]).toBe("Verified");
    // Verify for what is to verify only; every row leads to its visit.
    expect(within(rowOf("BUD-000001")).getByRole("button", { name: "Verify" })).toBeEnabled();
    expect(within(rowOf("BUD-000002")).getByRole("button", { name: "Verify" })).toBeEnabled();
    expect(within(rowOf("BUD-000003")).queryByRole("button", { name: "Verify" })).not.toBeInTheDocument();
    expect(within(rowOf("BUD-000001")).getByRole("link", { name: "Week 2" })).toHaveAttribute(
      "href",
      "/patient-visits/pv-55",
    );
    // The button's row says which visit it verifies.
    expect(within(rowOf("BUD-000001")).getByRole("button", { name: "Verify" })).toHaveAccessibleDescription(
      "BUD-000001 Week 2",
    );
    // Every visit to verify or verified: no state, no site.
    const [first] = listCalls(calls);
    expect(first.search.has("sdvStatus")).toBe(false);
    expect(first.search.has("siteId")).toBe(false);
  });

  it("filters by study and by state, kept in the URL", async () => {
    const calls = sdvServer();
    const u = userEvent.setup();
    const { router } = renderRoutes(routes, ["/source-verification?sdvStatus=PENDING"]);
    const chips = await screen.findByRole("group", { name: "Show visits that are" });
    expect(
      within(chips)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["All", "Pending", "Reopened", "Verified"]);
    expect(within(chips).getByRole("button", { name: "Pending" })).toHaveAttribute("aria-pressed", "true");
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("sdvStatus")).toBe("PENDING"));
    await screen.findByText("BUD-000001");
    expect(screen.queryByText("BUD-000002")).not.toBeInTheDocument();

    await u.click(within(chips).getByRole("button", { name: "Verified" }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("sdvStatus")).toBe("VERIFIED"));
    expect(await screen.findByText("BUD-000003")).toBeInTheDocument();

    await u.click(screen.getByRole("combobox", { name: "Study" }));
    await u.click(await screen.findByRole("option", { name: "TD-2025-002_EXT" }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.get("studyId")).toBe("11"));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      sdvStatus: "VERIFIED",
      studyId: "11",
    });

    await u.click(within(chips).getByRole("button", { name: "All" }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.search.has("sdvStatus")).toBe(false));
    expect(listCalls(calls).at(-1)?.search.get("studyId")).toBe("11");
  });

  it("says Nothing to verify when there is nothing", async () => {
    sdvServer({ rows: [] });
    renderRoutes(routes, ["/source-verification"]);
    expect(await screen.findByText("Nothing to verify")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Verify selected (0)" })).toBeDisabled();
  });

  it("says so when the list fails, and tries again on Retry", async () => {
    let fail = true;
    stubApi(
      signedInAs(monitor, (call) => {
        if (call.path === "/api/me/sites") return { data: { items: [] } };
        if (call.path === "/api/studies") return { data: page([]) };
        if (call.path === "/api/source-verification") {
          if (fail) return { status: 500, errorMessage: "Database unavailable" };
          return { data: page(initialRows()) };
        }
      }),
    );
    renderRoutes(routes, ["/source-verification"]);
    expect(await screen.findByText("Loading failed: Database unavailable")).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("BUD-000001")).toBeInTheDocument();
  });

  it("verifies one visit: Verify posts, and the row turns Verified with who and when", async () => {
    const calls = sdvServer();
    const u = userEvent.setup();
    renderRoutes(routes, ["/source-verification"]);
    await screen.findByText("BUD-000001");
    const before = listCalls(calls).length;
    await u.click(within(rowOf("BUD-000001")).getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(cells(rowOf("BUD-000001"))[8]).toBe("Verified"));
    const [post] = verifications(calls);
    expect(post.method).toBe("POST");
    expect(post.path).toBe("/api/patient-visits/pv-55/verification");
    // Through the api client: with the session's CSRF token.
    expect(post.headers[csrfHeader]).toBe("csrf");
    expect(cells(rowOf("BUD-000001"))[9]).toBe("Mona Monitor2026-03-20");
    expect(within(rowOf("BUD-000001")).queryByRole("button", { name: "Verify" })).not.toBeInTheDocument();
    // The list (and whatever counts it, the home page's tiles) is read again.
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(before));
  });

  it("verifies a selection one after another and reports what failed", async () => {
    const calls = sdvServer({ refused: ["pv-56"] });
    const u = userEvent.setup();
    renderRoutes(routes, ["/source-verification"]);
    await screen.findByText("BUD-000001");
    const verifySelected = screen.getByRole("button", { name: "Verify selected (0)" });
    expect(verifySelected).toBeDisabled();
    // A verified row cannot be chosen.
    expect(screen.getByRole("checkbox", { name: "Select BUD-000003 Baseline" })).toBeDisabled();

    await u.click(screen.getByRole("checkbox", { name: "Select all on this page" }));
    expect(screen.getByRole("checkbox", { name: "Select BUD-000001 Week 2" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Select BUD-000002 Screening" })).toBeChecked();
    await u.click(screen.getByRole("button", { name: "Verify selected (2)" }));

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "1 visit verified. 1 could not be verified: BUD-000002 Screening: Only a pending or reopened visit can be verified",
    );
    expect(verifications(calls).map((c) => c.path)).toEqual([
      "/api/patient-visits/pv-55/verification",
      "/api/patient-visits/pv-56/verification",
    ]);
    expect(cells(rowOf("BUD-000001"))[8]).toBe("Verified");
    expect(cells(rowOf("BUD-000002"))[8]).toBe("Reopened");
    // The one that failed stays selected, to try again.
    expect(screen.getByRole("checkbox", { name: "Select BUD-000002 Screening" })).toBeChecked();
    expect(screen.getByRole("button", { name: "Verify selected (1)" })).toBeEnabled();
  });

  it("verifies every selected visit", async () => {
    const calls = sdvServer();
    const u = userEvent.setup();
    renderRoutes(routes, ["/source-verification"]);
    await screen.findByText("BUD-000001");
    await u.click(screen.getByRole("checkbox", { name: "Select BUD-000002 Screening" }));
    await u.click(screen.getByRole("checkbox", { name: "Select BUD-000001 Week 2" }));
    await u.click(screen.getByRole("button", { name: "Verify selected (2)" }));
    expect(await screen.findByRole("status", { name: "" })).toHaveTextContent("2 visits verified.");
    expect(verifications(calls)).toHaveLength(2);
    await waitFor(() => expect(cells(rowOf("BUD-000002"))[8]).toBe("Verified"));
    expect(screen.getByRole("button", { name: "Verify selected (0)" })).toBeDisabled();
  });

  it("exports the filtered rows as CSV under the table's titles", async () => {
    // The call is what matters here; handing the file to the browser is ListScreen's (tested there).
    const calls = sdvServer();
    const u = userEvent.setup();
    renderRoutes(routes, ["/source-verification?sdvStatus=PENDING&studyId=10"]);
    await screen.findByText("BUD-000001");
    await u.click(screen.getByRole("button", { name: "Export CSV" }));
    const exported = await waitFor(() => {
      const call = calls.find((c) => c.path === "/api/source-verification/export");
      expect(call).toBeDefined();
      return call as Call;
    });
    expect(exported.search.get("sdvStatus")).toBe("PENDING");
    expect(exported.search.get("studyId")).toBe("10");
    expect(exported.search.has("page")).toBe(false);
    expect(JSON.parse(exported.search.get("columns") ?? "[]")).toContainEqual(["sdvStatus", "SDV"]);
  });
});
