import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { VisitSummary, VisitSummaryProfile } from "@trialdesk/domain";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Call, renderRoutes, stubApi } from "../../screens/test-utils";
import { VisitSummaryScreen } from "./visit-summary-screen";

const studyUuid = "std-00000000-0000-4000-8000-000000000001";
const study = { id: 1, uuid: studyUuid, workingName: "TD-2025-001_NORMAL" };
const summary: VisitSummary = {
  studyVisits: [
    { id: 11, visitName: "Screening", visitType: 20 },
    { id: 12, visitName: "Randomisation", visitType: 50 },
    { id: 13, visitName: "Week 4", visitType: 60 },
  ],
  patientStudyProfiles: [
    {
      barcode: "BUD-000001",
      firstName: "Anna",
      lastName: "Kiss",
      screenNr: "S-001",
      visits: [
        { visitId: 11, visitDate: "2025-03-03" },
        { visitId: 12, visitDate: "2025-03-17" },
      ],
    },
    {
      barcode: "BUD-000002",
      firstName: "Béla",
      lastName: "Nagy",
      screenNr: "S-002",
      // Booked without a date: still available.
      visits: [{ visitId: 13, visitDate: null }],
    },
  ],
};

const routes = [{ path: "/visit-summary/:studyUuid", element: <VisitSummaryScreen /> }];
const open = () => renderRoutes(routes, [`/visit-summary/${studyUuid}`]);

function answer(data: VisitSummary | null) {
  return stubApi((call: Call) => {
    if (call.path === `/api/studies/${studyUuid}`) return { data: study };
    if (call.path === `/api/patient-visit-summary/${studyUuid}`)
      return data ? { data } : { status: 500, errorMessage: "Internal server error" };
  });
}

const cellTexts = (row: HTMLElement) => Array.from(row.children, (c) => c.textContent);

// jsdom lays nothing out: give the grid's scroll area a viewport so the virtualiser renders rows.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1000);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("VisitSummaryScreen", () => {
  it("titles the grid with the study and shows each visit's date, else available", async () => {
    const calls = answer(summary);
    open();
    expect(await screen.findByRole("heading", { name: "Visit summary — TD-2025-001_NORMAL" })).toBeVisible();
    const table = await screen.findByRole("table", { name: "Visit summary" });
    expect(table).toHaveAttribute("aria-rowcount", "3");
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((h) => h.textContent);
    expect(headers).toEqual([
      "Nr.",
      "Screen Nr",
      "Name",
      "Screening20 Screening",
      "Randomisation50 Randomisation",
      "Week 460 Control",
    ]);
    const rows = within(table).getAllByRole("row");
    expect(rows).toHaveLength(3);
    expect(cellTexts(rows[1])).toEqual(["1", "S-001", "Kiss Anna", "2025-03-03", "2025-03-17", "available"]);
    expect(cellTexts(rows[2])).toEqual(["2", "S-002", "Nagy Béla", "available", "available", "available"]);
    expect(calls.map((c) => c.path)).toContain(`/api/patient-visit-summary/${studyUuid}`);
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

  it("renders only the rows in view of a long study, and the scroll area takes the keyboard", async () => {
    const many: VisitSummaryProfile[] = Array.from({ length: 2000 }, (_, i) => ({
      barcode: `BUD-${String(i + 1).padStart(6, "0")}`,
      firstName: "Patient",
      lastName: `No ${i + 1}`,
      screenNr: `S-${String(i + 1).padStart(4, "0")}`,
      visits: [{ visitId: 11, visitDate: "2025-01-02" }],
    }));
    answer({ ...summary, patientStudyProfiles: many });
    open();
    const table = await screen.findByRole("table", { name: "Visit summary" });
    expect(table).toHaveAttribute("aria-rowcount", "2001");
    const rows = within(table).getAllByRole("row");
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(rows[1]).toHaveAttribute("aria-rowindex", "2");
    const region = screen.getByRole("region", { name: "Visit summary grid" });
    await userEvent.tab();
    expect(region).toHaveFocus();
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
