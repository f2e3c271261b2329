import { screen, waitFor } from "@testing-library/react";
import type { Visit } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { renderRoutes, stubApi } from "../../screens/test-utils";
import { Form } from "./visit-screens";

const study = { id: 2, uuid: "std-00000000-0000-4000-8000-000000000002", workingName: "TD-2025-001_NORMAL" };
const visit: Visit = {
  id: 11,
  uuid: "vis-00000000-0000-4000-8000-000000000011",
  version: 1,
  studyId: study.id,
  name: "Screening",
  visitTypeId: 20,
  mandatory: 1,
  visitType: "Screening",
  studyName: study.workingName,
  protocolNr: "TD-2025-001",
  inUse: false,
};

const list = (items: unknown[]) => ({
  data: { items, pagination: { page: 1, pageSize: 250, total: items.length } },
});

/** The visit's edit form, its record as given. */
function openVisit(record: Visit) {
  stubApi((call) => {
    if (call.path === `/api/visits/${record.uuid}`) return { data: record };
    if (call.path === "/api/studies") return list([study]);
    if (call.path === `/api/studies/${study.uuid}/visits`) return list([record]);
    return undefined;
  });
  renderRoutes([{ path: "/visits/:itemId/edit", element: <Form /> }], [`/visits/${record.uuid}/edit`]);
}

describe("visit form", () => {
  it("shows the study as fixed, and why, for a visit recorded for patients or planned", async () => {
    openVisit({ ...visit, inUse: true });
    const select = await screen.findByLabelText("Study");
    await waitFor(() => expect(select).toBeDisabled());
    expect(select).toHaveAccessibleDescription(
      "This visit is recorded for patients or planned in a studyplan: it cannot move to another study",
    );
    expect(screen.getByLabelText("Visit name")).toBeEnabled();
  });

  it("lets an unused visit move to another study", async () => {
    openVisit(visit);
    const select = await screen.findByLabelText("Study");
    await waitFor(() => expect(select).toHaveTextContent(study.workingName));
    expect(select).toBeEnabled();
    expect(select).not.toHaveAccessibleDescription();
  });
});
