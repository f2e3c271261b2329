import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Call, renderRoutes, stubApi } from "../../screens/test-utils";
import { Editor } from "./studyplan-screens";

const studyUuid = "std-1";
const planUuid = "spl-1";
const visits = [
  { id: 1, uuid: "vis-1", name: "Screening", visitTypeId: 20, mandatory: 1 },
  { id: 2, uuid: "vis-2", name: "Week 2", visitTypeId: 60, mandatory: 1 },
  { id: 3, uuid: "vis-3", name: "Week 3", visitTypeId: 60, mandatory: 1 },
];
const entry = (fromVisitId: number, toVisitId: number | null, days: number, sequence: number) => ({
  id: sequence,
  fromVisitId,
  toVisitId,
  daysFromStart: days,
  allowedDaysBefore: 1,
  allowedDaysAfter: 1,
  sequence,
});
// Days typed as intervals: 14 to Week 2, then 7 more to Week 3.
const plan = {
  id: 5,
  uuid: planUuid,
  version: 2,
  studyId: 9,
  studyUuid,
  studyName: "TD-2025-001_NORMAL",
  calculationMode: "default",
  schedule: [entry(1, 2, 14, 1), entry(2, 3, 7, 2), entry(3, null, 0, 3)],
};

function server() {
  return stubApi((call: Call) => {
    if (call.path === `/api/studyplans/${planUuid}` && call.method === "GET") return { data: plan };
    if (call.path === `/api/studyplans/${planUuid}` && call.method === "PUT")
      return { data: { ...plan, ...(call.body as object), version: 3 } };
    if (call.path === `/api/studies/${studyUuid}/visits`)
      return { data: { items: visits, pagination: { page: 1, pageSize: 100, total: 3 } } };
  });
}

const open = () =>
  renderRoutes(
    [{ path: "/studyplans/:studyplanUuid/edit", element: <Editor /> }],
    [`/studyplans/${planUuid}/edit`],
  );

afterEach(() => vi.unstubAllGlobals());

describe("studyplan editor: calculation (issue 12)", () => {
  it("offers From the first visit / From the previous visit, warns without blocking on decreasing days, and saves the choice", async () => {
    const u = userEvent.setup();
    const calls = server();
    open();
    const group = await screen.findByRole("group", { name: "Calculation" });
    const first = screen.getByRole("radio", { name: "From the first visit" });
    const previous = screen.getByRole("radio", { name: "From the previous visit" });
    expect(group).toContainElement(first);
    await waitFor(() => expect(first).toBeChecked());
    expect(await screen.findByText(/The days go down along this plan/)).toHaveAttribute("role", "status");

    // Save stays possible with the warning shown.
    const save = screen.getByRole("button", { name: "Save" });
    await u.click(previous);
    expect(previous).toBeChecked();
    expect(screen.queryByText(/The days go down along this plan/)).not.toBeInTheDocument();
    await waitFor(() => expect(save).toBeEnabled());
    await u.click(save);
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({
      calculationMode: "previous",
      version: 2,
    });
  });

  it("gives no warning when the days grow along the plan", async () => {
    server();
    plan.schedule[1].daysFromStart = 21;
    try {
      open();
      await waitFor(() => expect(screen.getByRole("radio", { name: "From the first visit" })).toBeChecked());
      await screen.findByText("Week 3");
      expect(screen.queryByText(/The days go down along this plan/)).not.toBeInTheDocument();
    } finally {
      plan.schedule[1].daysFromStart = 7;
    }
  });
});
