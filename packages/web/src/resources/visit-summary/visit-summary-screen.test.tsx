import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  type CompactVisitSummary,
  compactVisitSummary,
  type SignedInUser,
  type SiteOption,
  type VisitSummary,
  type VisitSummaryCell,
  type VisitSummaryProfile,
  visitSummaryDayZero,
} from "@trialdesk/domain";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../../app/site";
import { type Call, defaultUser, renderRoutes, signedInAs, stubApi } from "../../screens/test-utils";
import { VisitSummaryScreen } from "./visit-summary-screen";

const site = { id: 7, uuid: "sit-7", code: "BUD", shortName: "Budapest", city: "Budapest" } as SiteOption;
const studyUuid = "std-00000000-0000-4000-8000-000000000001";
const otherUuid = "std-00000000-0000-4000-8000-000000000002";
const study = { id: 1, uuid: studyUuid, workingName: "TD-2025-001_NORMAL" };
const other = { id: 2, uuid: otherUuid, workingName: "TD-2025-002_EXT" };

const planned = { calculationMode: "default" as const };
const cell = (visitId: number, over: Partial<VisitSummaryCell>): VisitSummaryCell => ({
  visitId,
  state: "unscheduled",
  ...over,
});
const profile = (over: Partial<VisitSummaryProfile>): VisitSummaryProfile => ({
  barcode: "BUD-000001",
  firstName: "Anna",
  lastName: "Kiss",
  screenNr: "S-001",
  patientUuid: "prt-1",
  active: true,
  visits: [],
  ...over,
});
const summary: VisitSummary = {
  studyVisits: [
    {
      id: 11,
      visitName: "Screening",
      visitType: 20,
      sequence: 1,
      daysFromStart: null,
      allowedDaysBefore: null,
      allowedDaysAfter: null,
      ...planned,
    },
    {
      id: 12,
      visitName: "Randomisation",
      visitType: 50,
      sequence: 2,
      daysFromStart: 14,
      allowedDaysBefore: 2,
      allowedDaysAfter: 2,
      ...planned,
    },
    {
      id: 13,
      visitName: "Week 4",
      visitType: 60,
      sequence: null,
      daysFromStart: null,
      allowedDaysBefore: null,
      allowedDaysAfter: null,
      calculationMode: null,
    },
  ],
  patientStudyProfiles: [
    profile({
      visits: [
        cell(11, {
          visitDate: "2025-03-03",
          state: "done",
        }),
        cell(12, {
          visitDate: "2025-03-27",
          state: "booked",
          expectedDate: "2025-03-17",
          bookedOutsideWindow: true,
        }),
      ],
    }),
    profile({
      barcode: "BUD-000002",
      firstName: "Béla",
      lastName: "Nagy",
      screenNr: "S-002",
      patientUuid: "prt-2",
      visits: [
        cell(11, {
          state: "overdue",
          expectedDate: "2025-03-01",
        }),
        cell(12, {
          state: "upcoming",
          expectedDate: "2026-04-15",
        }),
        // Booked without a date: still available.
        cell(13, { state: "unscheduled" }),
      ],
    }),
  ],
};

/** The day the fixtures' states hold on: Béla's Randomisation is still upcoming, his Screening overdue. */
const asOf = "2026-01-15";
/** The fixtures as the server sends them to the screen (CompactVisitSummary). */
const compact = (data: VisitSummary) => compactVisitSummary(data, asOf);

const routes = [{ path: "/visit-summary/:studyUuid", element: <VisitSummaryScreen /> }].map((route) => ({
  ...route,
  element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider>,
}));
const open = (uuid = studyUuid) => renderRoutes(routes, [`/visit-summary/${uuid}`]);

function answer(data: VisitSummary | null, status = 500) {
  return stubApi((call: Call) => {
    if (call.path === "/api/me/sites") return { data: { items: [site] } };
    if (call.path === "/api/studies")
      return { data: { items: [study, other], pagination: { page: 1, pageSize: 100, total: 2 } } };
    if (call.path === `/api/studies/${studyUuid}`) return { data: study };
    if (call.path === `/api/studies/${otherUuid}`) return { data: other };
    if (call.path.startsWith("/api/patient-visit-summary/"))
      return data
        ? { data: compact(data) }
        : { status, errorMessage: status === 404 ? "Not found" : "Internal server error" };
  });
}

const cellTexts = (row: HTMLElement) => Array.from(row.children, (c) => c.textContent);

// jsdom lays nothing out: give the grid's scroll area a viewport so the virtualiser renders rows.
beforeEach(() => {
  localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid);
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1000);
});

describe("VisitSummaryScreen", () => {
  it("titles the grid with the study and shows each visit's date, else available, coloured by its state", async () => {
    const calls = answer(summary);
    open();
    expect(await screen.findByRole("heading", { name: "Visit summary — TD-2025-001_NORMAL" })).toBeVisible();
    const table = await screen.findByRole("table", { name: "Visit summary" });
    expect(table).toHaveAttribute("aria-rowcount", "3");
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((h) => h.textContent);
    // Name, type, and the day and window of the plan (none for a visit off the plan).
    expect(headers).toEqual([
      "Nr.",
      "Screen Nr",
      "Name",
      "Screening20 ScreeningDay 0",
      "Randomisation50 RandomisationDay 14 ±2",
      "Week 460 Control\u00a0",
    ]);
    const rows = within(table).getAllByRole("row");
    expect(rows).toHaveLength(3);
    expect(cellTexts(rows[1])).toEqual([
      "1",
      "S-001",
      "Kiss Anna",
      "2025-03-03 Done",
      "2025-03-27 Booked",
      "available",
    ]);
    expect(cellTexts(rows[2])).toEqual([
      "2",
      "S-002",
      "Nagy Béla",
      "available Overdue",
      "available15 Apr Upcoming",
      "available Unscheduled",
    ]);
    const [done, booked] = within(rows[1]).getAllByRole("cell").slice(2);
    expect(done).toHaveClass("bg-green-100");
    expect(booked).toHaveClass("bg-blue-100");
    expect(booked).toHaveAttribute("title", "Booked outside the window · window 15 Mar – 19 Mar 2025");
    const [overdue, upcoming] = within(rows[2]).getAllByRole("cell").slice(2);
    expect(overdue).toHaveClass("bg-red-100");
    expect(upcoming).toHaveClass("bg-violet-100");
    // The legend names every colour.
    const legend = screen.getByRole("list", { name: "Legend" });
    expect(
      within(legend)
        .getAllByRole("listitem")
        .map((i) => i.textContent),
    ).toEqual([
      "Done",
      "Out of window",
      "Booked",
      "Due",
      "Overdue",
      "Missed",
      "Upcoming (expected date shown)",
      "Not applicable",
    ]);
    expect(within(legend).getByText("Overdue")).toHaveClass("bg-red-100");
    // No source verification in this study: nothing to explain of it.
    expect(screen.queryByRole("list", { name: "Source verification marks" })).toBeNull();
    // Missed has a colour of its own, not overdue's red (issue 43).
    expect(within(legend).getByText("Missed")).toHaveClass("bg-fuchsia-100");
    expect(within(legend).getByText("Missed")).not.toHaveClass("bg-red-100");
    // The active site's patients only.
    const call = calls.find((c) => c.path === `/api/patient-visit-summary/${studyUuid}`);
    expect(call?.search.get("siteId")).toBe("7");
    // The day its decoder counts the cells' days from, so a server that packs them otherwise refuses.
    expect(call?.search.get("dayZero")).toBe(visitSummaryDayZero);
  });

  it("marks a missed or out-of-window cell: a protocol deviation is on file (issue 43)", async () => {
    answer({
      ...summary,
      patientStudyProfiles: [
        profile({
          visits: [
            cell(11, { visitDate: "2025-03-03", state: "done" }),
            cell(12, { state: "missed", expectedDate: "2025-03-17" }),
            cell(13, { visitDate: "2025-04-20", state: "out-of-window" }),
          ],
        }),
      ],
    });
    open();
    const table = await screen.findByRole("table", { name: "Visit summary" });
    const row = await within(table).findByRole("row", { name: /Kiss Anna/ });
    const [done, missed, outside] = within(row).getAllByRole("cell").slice(2);
    expect(missed).toHaveClass("bg-fuchsia-100");
    expect(missed).toHaveAttribute(
      "title",
      "Missed · window 15 Mar – 19 Mar 2025 · Protocol deviation on file",
    );
    expect(missed).toHaveTextContent("available Missed, protocol deviation on file");
    expect(outside).toHaveAttribute("title", "Out of window · Protocol deviation on file");
    expect(within(outside).getByText("!")).toBeInTheDocument();
    expect(done).not.toHaveAttribute("title", expect.stringContaining("deviation"));
    expect(within(done).queryByText("!")).toBeNull();
  });

  it("shows only the patients with an overdue visit when asked", async () => {
    const u = userEvent.setup();
    answer(summary);
    const { router } = open();
    const table = await screen.findByRole("table", { name: "Visit summary" });
    await within(table).findByRole("rowheader", { name: "Kiss Anna" });
    await u.click(screen.getByRole("checkbox", { name: "Only patients with overdue visits" }));
    await waitFor(() => expect(within(table).queryByRole("rowheader", { name: "Kiss Anna" })).toBeNull());
    expect(within(table).getByRole("rowheader", { name: "Nagy Béla" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("?overdue=true");
  });

  it("opens another study's summary from the study picker", async () => {
    const u = userEvent.setup();
    const calls = answer(summary);
    const { router } = open();
    await screen.findByRole("table", { name: "Visit summary" });
    await u.click(screen.getByRole("combobox", { name: "Study" }));
    await u.click(await screen.findByRole("option", { name: "TD-2025-002_EXT" }));
    expect(await screen.findByRole("heading", { name: "Visit summary — TD-2025-002_EXT" })).toBeVisible();
    expect(router.state.location.pathname).toBe(`/visit-summary/${otherUuid}`);
    await waitFor(() =>
      expect(calls.some((c) => c.path === `/api/patient-visit-summary/${otherUuid}`)).toBe(true),
    );
  });

  it("asks for the list of studies only once the grid has its answer (issue 14)", async () => {
    const calls = answer(summary);
    open();
    await screen.findByRole("rowheader", { name: "Kiss Anna" });
    await waitFor(() => expect(calls.some((c) => c.path === "/api/studies")).toBe(true));
    const summaryCall = calls.findIndex((c) => c.path.startsWith("/api/patient-visit-summary/"));
    expect(calls.findIndex((c) => c.path === "/api/studies")).toBeGreaterThan(summaryCall);
  });

  it("asks for a site first", async () => {
    localStorage.clear();
    const calls = answer(summary);
    open();
    expect(await screen.findByText("Please select a site first")).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith("/api/patient-visit-summary/"))).toBe(false);
  });

  it("says an unknown study was not found", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    answer(null, 404);
    open();
    expect(await screen.findByText("Study not found")).toBeVisible();
  });

  it("keeps Nr., Screen Nr and Name sticky to the left and the header to the top", async () => {
    answer(summary);
    open();
    const table = await screen.findByRole("table", { name: "Visit summary" });
    const [nr, screenNr, name, visit] = within(table).getAllByRole("columnheader");
    for (const [header, left] of [
      [nr, "0px"],
      [screenNr, "56px"],
      [name, "168px"],
    ] as const) {
      expect(header).toHaveClass("sticky", "top-0");
      expect(header.style.left).toBe(left);
    }
    expect(visit).toHaveClass("sticky", "top-0");
    expect(visit.style.left).toBe("");
    const row = within(table).getByRole("row", { name: /Kiss Anna/ });
    const [first, second] = within(row).getAllByRole("cell");
    expect(first).toHaveClass("sticky");
    expect(first.style.left).toBe("0px");
    expect(second.style.left).toBe("56px");
    expect(within(row).getByRole("rowheader", { name: "Kiss Anna" }).style.left).toBe("168px");
  });

  it("keeps only Name in place on a phone, so the visit columns can be seen (issue 15, bug 2)", async () => {
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: query === "(max-width: 639px)",
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    answer(summary);
    open();
    const table = await screen.findByRole("table", { name: "Visit summary" });
    const [nr, screenNr, name] = within(table).getAllByRole("columnheader");
    expect(nr.style.left).toBe("auto");
    expect(screenNr.style.left).toBe("auto");
    expect(name.style.left).toBe("0px");
    // The three fixed columns take less than half of a 390 px screen.
    const fixed = [nr, screenNr, name].reduce((sum, h) => sum + Number.parseInt(h.style.width, 10), 0);
    expect(fixed).toBeLessThan(300);
    expect(within(table).getByRole("rowheader", { name: "Kiss Anna" }).style.left).toBe("0px");
  });

  it("renders only the rows in view of a long study, and the scroll area takes the keyboard", async () => {
    const many: VisitSummaryProfile[] = Array.from({ length: 2000 }, (_, i) =>
      profile({
        barcode: `BUD-${String(i + 1).padStart(6, "0")}`,
        firstName: "Patient",
        lastName: `No ${i + 1}`,
        screenNr: `S-${String(i + 1).padStart(4, "0")}`,
        visits: [cell(11, { visitDate: "2025-01-02", state: "done" })],
      }),
    );
    answer({ ...summary, patientStudyProfiles: many });
    open();
    const table = await screen.findByRole("table", { name: "Visit summary" });
    expect(table).toHaveAttribute("aria-rowcount", "2001");
    const rows = within(table).getAllByRole("row");
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(rows[1]).toHaveAttribute("aria-rowindex", "2");
    const region = screen.getByRole("region", { name: "Visit summary grid" });
    // After the study picker, the overdue toggle and Export CSV, Tab reaches the grid.
    for (let i = 0; i < 4; i++) await userEvent.tab();
    expect(region).toHaveFocus();
  });

  it("gives cells only to the visit columns in view, and to the next ones when scrolled sideways", async () => {
    const visits = Array.from({ length: 40 }, (_, i) => ({
      ...summary.studyVisits[2],
      id: 100 + i,
      visitName: `Visit ${i + 1}`,
    }));
    answer({
      studyVisits: visits,
      patientStudyProfiles: [
        profile({
          visits: visits.map((v, i) =>
            // A date of its own for each visit: 1 January 2025 onwards.
            cell(v.id, {
              visitDate: new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10),
              state: "done",
            }),
          ),
        }),
      ],
    });
    open();
    const table = await screen.findByRole("table", { name: "Visit summary" });
    // Every column keeps its header.
    expect(within(table).getAllByRole("columnheader")).toHaveLength(43);
    const row = await within(table).findByRole("row", { name: /Kiss Anna/ });
    const cells = () => within(row).getAllByRole("cell");
    // 1,000 px of grid: the sticky columns and a handful of visit columns, not forty.
    expect(cells().length).toBeLessThan(15);
    expect(cells()[2]).toHaveTextContent("2025-01-01 Done");
    expect(cells()[2]).toHaveAttribute("aria-colindex", "4");
    const region = screen.getByRole("region", { name: "Visit summary grid" });
    // jsdom does not scroll: the scroll area reports the offset a person scrolled to.
    Object.defineProperty(region, "scrollLeft", { configurable: true, get: () => 30 * 152 });
    region.dispatchEvent(new Event("scroll"));
    await waitFor(() => expect(within(row).queryByText("2025-01-01")).toBeNull());
    // The 31st visit column (the 34th of the grid) is drawn in its place.
    const visit31 = cells().find((c) => c.getAttribute("aria-colindex") === "34");
    expect(visit31).toHaveTextContent("2025-01-31 Done");
    expect(cells().length).toBeLessThan(15);
  });

  it("says so when the study has no patients", async () => {
    answer({ ...summary, patientStudyProfiles: [] });
    open();
    expect(await screen.findByText("No patients in this study")).toBeVisible();
    expect(within(screen.getByRole("table", { name: "Visit summary" })).getAllByRole("row")).toHaveLength(1);
  });

  it("logs a failed summary fetch and shows no message, only the empty grid", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    answer(null);
    open();
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(await screen.findByRole("table", { name: "Visit summary" })).toBeVisible();
    expect(screen.queryByText("No patients in this study")).toBeNull();
    expect(screen.queryByText(/Internal server error/)).toBeNull();
    expect(screen.getByLabelText("toasts")).toBeEmptyDOMElement();
  });
});

describe("source verification in the visit summary (issue 44)", () => {
  const withSdv = (sdv: CompactVisitSummary["sdv"]) => ({ ...compact(summary), sdv });
  const serve = (data: CompactVisitSummary) => (call: Call) => {
    if (call.path === "/api/me/sites") return { data: { items: [site] } };
    if (call.path === "/api/studies")
      return { data: { items: [study, other], pagination: { page: 1, pageSize: 100, total: 2 } } };
    if (call.path === `/api/studies/${studyUuid}`) return { data: study };
    if (call.path.startsWith("/api/patient-visit-summary/")) return { data };
  };

  it("marks each cell whose visit a monitor verifies, and says what the marks mean", async () => {
    stubApi(
      serve(
        withSdv([
          ["prt-1", 11, "VERIFIED"],
          ["prt-1", 12, "REOPENED"],
          ["prt-2", 11, "PENDING"],
        ]),
      ),
    );
    open();
    const table = await screen.findByRole("table", { name: "Visit summary" });
    const anna = await within(table).findByRole("row", { name: /Kiss Anna/ });
    const [screening, randomisation, week4] = within(anna).getAllByRole("cell").slice(2);
    expect(within(screening).getByRole("img", { name: "Source verification: Verified" })).toHaveAttribute(
      "title",
      "Source verification: Verified",
    );
    expect(screening).toHaveAttribute("title", "Done · Source verification: Verified");
    expect(within(randomisation).getByRole("img", { name: "Source verification: Reopened" })).toBeVisible();
    expect(within(week4).queryByRole("img")).toBeNull();
    const bela = within(table).getByRole("row", { name: /Nagy Béla/ });
    expect(
      within(within(bela).getAllByRole("cell")[2]).getByRole("img", { name: "Source verification: Pending" }),
    ).toBeVisible();
    // Beside the colours' legend, which keeps its entries.
    const marks = screen.getByRole("list", { name: "Source verification marks" });
    expect(
      within(marks)
        .getAllByRole("listitem")
        .map((i) => i.textContent),
    ).toEqual([
      "Source verification: Pending",
      "Source verification: Verified",
      "Source verification: Reopened",
    ]);
    expect(within(screen.getByRole("list", { name: "Legend" })).getAllByRole("listitem")).toHaveLength(8);
  });

  it("shows a monitor the patients by barcode, without choosing a site", async () => {
    localStorage.clear();
    const monitor: SignedInUser = {
      ...defaultUser,
      uuid: "mon-3",
      isAdmin: false,
      kind: "monitor",
      profile: { firstName: "Mona", lastName: "Monitor" },
    };
    // The server answers a monitor no names.
    const nameless = {
      ...summary,
      patientStudyProfiles: summary.patientStudyProfiles.map((p) => ({ ...p, firstName: "", lastName: "" })),
    };
    const calls = stubApi(
      signedInAs(monitor, serve({ ...compact(nameless), sdv: [["prt-1", 11, "VERIFIED"]] })),
    );
    open();
    const table = await screen.findByRole("table", { name: "Visit summary" });
    expect(within(table).getAllByRole("columnheader")[2]).toHaveTextContent("Barcode");
    expect(await within(table).findByRole("rowheader", { name: "BUD-000001" })).toBeInTheDocument();
    expect(within(table).getByRole("rowheader", { name: "BUD-000002" })).toBeInTheDocument();
    expect(within(table).getByRole("img", { name: "Source verification: Verified" })).toBeInTheDocument();
    expect(screen.queryByText("Please select a site first")).toBeNull();
    const call = calls.find((c) => c.path === `/api/patient-visit-summary/${studyUuid}`);
    expect(call?.search.has("siteId")).toBe(false);
  });
});

describe("Export CSV of the visit summary (issue 46, point 10)", () => {
  const csv = "\uFEFFNr.,Screen Nr,Name,Screening\r\n1,S-001,Kiss Anna,2025-03-03 (Done)\r\n";
  const objectUrls = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  afterEach(() => {
    URL.createObjectURL = objectUrls.create;
    URL.revokeObjectURL = objectUrls.revoke;
  });

  /**
   * The summary's export answered as the server streams it (CSV bytes and a Content-Disposition), or
   * refused with an error envelope; every other call goes to the stub of the test before it.
   */
  function stubExport(answer: "csv" | "error" = "csv") {
    const envelopeFetch = globalThis.fetch;
    const calls: { url: URL; headers: Headers }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: string, init: RequestInit = {}) => {
        const url = new URL(input, "http://localhost");
        if (!url.pathname.endsWith("/export")) return envelopeFetch(input, init);
        calls.push({ url, headers: new Headers(init.headers) });
        if (answer === "error")
          return new Response(
            JSON.stringify({ header: { result: "error", errorMessage: "Study not found" }, data: null }),
            { status: 404, headers: { "Content-Type": "application/json" } },
          );
        return new Response(new TextEncoder().encode(csv), {
          status: 200,
          headers: {
            "Content-Type": "text/csv; charset=utf-8",
            "Content-Disposition": 'attachment; filename="visit-summary-2026-01-15.csv"',
          },
        });
      }),
    );
    return calls;
  }

  /** What the temporary download link was asked to save (jsdom has no object URLs). */
  function watchDownloads() {
    const saved: { download: string; blob: Blob }[] = [];
    const blobs = new Map<string, Blob>();
    URL.createObjectURL = vi.fn((blob: Blob) => {
      const href = `blob:test/${blobs.size + 1}`;
      blobs.set(href, blob);
      return href;
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ download: this.download, blob: blobs.get(this.href) as Blob });
    });
    return saved;
  }

  it("downloads the active site's grid from the summary's export route, with the overdue filter when on", async () => {
    const u = userEvent.setup();
    answer(summary);
    const calls = stubExport();
    const saved = watchDownloads();
    open();
    await screen.findByRole("table", { name: "Visit summary" });
    await u.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(calls).toHaveLength(1);
    expect(calls[0].url.pathname).toBe(`/api/patient-visit-summary/${studyUuid}/export`);
    expect(Object.fromEntries(calls[0].url.searchParams)).toEqual({ siteId: "7" });
    expect(calls[0].headers.get("authorization")).toBe("Bearer token");
    expect(saved[0].download).toBe("visit-summary-2026-01-15.csv");
    const bytes = new Uint8Array(await saved[0].blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe(csv.slice(1));

    // With "Only patients with overdue visits" on, the file holds the rows the grid shows.
    await u.click(screen.getByRole("checkbox", { name: "Only patients with overdue visits" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Export CSV" })).toBeEnabled());
    await u.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(Object.fromEntries(calls[1].url.searchParams)).toEqual({ siteId: "7", overdue: "true" });
  });

  it("asks a monitor's export without a site: the server answers the sites of their assignment", async () => {
    localStorage.clear();
    const monitor: SignedInUser = { ...defaultUser, uuid: "mon-3", isAdmin: false, kind: "monitor" };
    stubApi(
      signedInAs(monitor, (call) => {
        if (call.path === `/api/studies/${studyUuid}`) return { data: study };
        if (call.path === "/api/studies")
          return { data: { items: [study], pagination: { page: 1, pageSize: 100, total: 1 } } };
        if (call.path.startsWith("/api/patient-visit-summary/")) return { data: compact(summary) };
      }),
    );
    const calls = stubExport();
    const saved = watchDownloads();
    const u = userEvent.setup();
    open();
    await screen.findByRole("table", { name: "Visit summary" });
    await u.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(calls[0].url.pathname).toBe(`/api/patient-visit-summary/${studyUuid}/export`);
    expect([...calls[0].url.searchParams.keys()]).toEqual([]);
  });

  it("says why an export failed, and saves nothing", async () => {
    answer(summary);
    stubExport("error");
    const saved = watchDownloads();
    const u = userEvent.setup();
    open();
    await screen.findByRole("table", { name: "Visit summary" });
    await u.click(screen.getByRole("button", { name: "Export CSV" }));
    expect(await screen.findByText("Can not export: Study not found")).toBeInTheDocument();
    expect(saved).toHaveLength(0);
  });

  it("is not offered for a study that is not found", async () => {
    answer(null, 404);
    open();
    expect(await screen.findByText("Study not found")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Export CSV" })).toBeNull();
  });
});
