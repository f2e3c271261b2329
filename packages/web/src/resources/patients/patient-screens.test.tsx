import { screen, within } from "@testing-library/react";
import type { Patient } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { type Call, renderRoutes, stubApi } from "../../screens/test-utils";
import { Detail } from "./patient-screens";

const patient = {
  id: 1,
  uuid: "pt-1",
  version: 1,
  barcode: "BUD-000001",
  status: 1,
  statusDetails: null,
  recorderSiteId: 7,
  addressId: null,
  patientDetail: { firstName: "Anna", lastName: "Kovács", sex: "FEMALE" },
  address: null,
  contacts: [],
} as unknown as Patient;

const deviation = {
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
  daysOutside: -1,
  detectedOn: "2026-03-11",
  severity: "MINOR",
  status: "REPORTED",
  noLongerApplies: true,
};

function server(call: Call) {
  if (call.path === "/api/patients/pt-1") return { data: patient };
  if (call.path === "/api/protocol-deviations")
    return { data: { items: [deviation], pagination: { page: 1, pageSize: 100, total: 1 } } };
  if (call.path === "/api/audit") return { data: { items: [] } };
}

describe("the patient detail's deviations (issue 43)", () => {
  it("lists the patient's protocol deviations, each leading to its detail", async () => {
    const calls = stubApi(server);
    renderRoutes([{ path: "/patients/:itemId", element: <Detail /> }], ["/patients/pt-1"]);
    const section = await screen.findByRole("region", { name: "Deviations" });
    const table = await within(section).findByRole("table", { name: "Deviations of the patient" });
    const [, row] = within(table).getAllByRole("row");
    expect(Array.from(row.children, (c) => c.textContent)).toEqual([
      "2026-03-11",
      "TD-2025-001_NORMAL",
      "Week 2",
      "Out of window",
      "−1 day",
      "Minor",
      "ReportedNo longer applies",
    ]);
    expect(within(row).getByRole("link", { name: "Out of window" })).toHaveAttribute(
      "href",
      "/protocol-deviations/dev-1",
    );
    const call = calls.find((c) => c.path === "/api/protocol-deviations");
    expect(call?.search.get("patientId")).toBe("1");
  });
});
