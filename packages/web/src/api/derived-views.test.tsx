import type { QueryClient } from "@tanstack/react-query";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SiteOption } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../app/site";
import { Form as StudyPatientForm } from "../resources/study-patients/study-patient-screens";
import { Editor as StudyplanEditor } from "../resources/studyplans/studyplan-screens";
import { ListScreen } from "../screens/ListScreen";
import {
  type Call,
  defaultUser,
  giveReason,
  renderRoutes,
  saveWhenReady,
  stubApi,
} from "../screens/test-utils";
import { queryKeys } from "./queries";

/**
 * A write leaves no derived view stale (issue 47, point 5): with the worklist, the home page's counts,
 * a patient's schedule and a study's visit summary read before, a write made the way a person makes
 * it leaves each of them to be read again, under the keys their screens read them with.
 */
const site = {
  id: 4,
  uuid: "site-4",
  code: "BUD",
  shortName: "Budapest CRC",
  city: "Budapest",
} as SiteOption;
const views = {
  worklist: queryKeys.list("worklist", { siteId: site.id, page: 1, pagesize: 10 }),
  worklistCounts: queryKeys.worklistCounts({ siteId: site.id, page: 1, pagesize: 1 }),
  patientSchedule: queryKeys.patientSchedule(7),
  visitSummary: queryKeys.visitSummary("std-1", site.id),
};

/** Puts the views in the client as read; answers which of them are still as read. */
function readBefore(client: QueryClient) {
  for (const key of Object.values(views)) client.setQueryData(key, {});
  return () =>
    Object.entries(views)
      .filter(([, key]) => !client.getQueryState(key)?.isInvalidated)
      .map(([view]) => view);
}

const list = (items: unknown[]) => ({
  data: { items, pagination: { page: 1, pageSize: 100, total: items.length } },
});
const sent = (calls: Call[], method: string) => calls.filter((call) => call.method === method);

describe("a write leaves no derived view stale", () => {
  it("removing a patient visit from its list", async () => {
    const visit = { id: 8, uuid: "pv-8", version: 2, visitName: "Week 4" };
    const calls = stubApi((call) => {
      if (call.method === "GET" && call.path === "/api/patient-visits") return list([visit]);
      if (call.method === "DELETE" && call.path === "/api/patient-visits/pv-8")
        return { data: { deleted: true } };
    });
    const user = userEvent.setup();
    const description = {
      resource: "patient-visits",
      columns: [{ key: "visitName", title: "Visit" }],
      describe: (row: Record<string, unknown>) => String(row.visitName),
      options: { remove: true },
    };
    const { client } = renderRoutes(
      [{ path: "/patient-visits", element: <ListScreen description={description} /> }],
      ["/patient-visits"],
    );
    const unchanged = readBefore(client);
    await user.click(await screen.findByRole("button", { name: "Remove Week 4" }));
    await user.click(
      within(screen.getByRole("dialog", { name: "Remove item" })).getByRole("button", { name: "Yes" }),
    );
    await giveReason(user);
    expect(await screen.findByText("Item deleted")).toBeInTheDocument();
    expect(sent(calls, "DELETE")).toHaveLength(1);
    expect(unchanged()).toEqual([]);
  });

  it("saving a study assignment in its form", async () => {
    localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid);
    const assignment = {
      id: 12,
      uuid: "sp-12",
      version: 3,
      studyId: 2,
      patientId: 7,
      screenNr: "S-012",
      randomNr: null,
      active: true,
      startDate: "2025-05-05",
      closeDate: null,
      closeReason: null,
      notes: null,
      barcode: "BUD-000007",
      firstName: "Ilona",
      lastName: "Kiss",
      projectInternalCode: "ACRMDPHFL001",
      studyWorkingName: "TD-2025-001_NORMAL",
      hasVisits: false,
    };
    const calls = stubApi((call) => {
      if (call.path === "/api/me/sites") return { data: { items: [site] } };
      if (call.path === "/api/patients")
        return list([{ id: 7, barcode: "BUD-000007", firstName: "Ilona", lastName: "Kiss" }]);
      if (call.path === "/api/studies")
        return list([{ id: 2, workingName: "TD-2025-001_NORMAL", projectInternalCode: "ACRMDPHFL001" }]);
      if (call.path === "/api/study-patients/sp-12" && call.method === "GET") return { data: assignment };
      if (call.path === "/api/study-patients/sp-12" && call.method === "PUT")
        return { data: { ...assignment, ...(call.body as object), version: 4 } };
    });
    const user = userEvent.setup();
    const { client } = renderRoutes(
      [
        {
          path: "/study-patients/:itemId/edit",
          element: (
            <ActiveSiteProvider>
              <StudyPatientForm />
            </ActiveSiteProvider>
          ),
        },
        { path: "/study-patients/:itemId", element: <p>assignment</p> },
        { path: "/study-patients", element: <p>assignments</p> },
      ],
      ["/study-patients/sp-12/edit"],
    );
    const unchanged = readBefore(client);
    // Every save of an assignment rebuilds its windows and draws its study's sample again.
    const screenNr = await screen.findByLabelText("Screen number");
    await waitFor(() => expect(screenNr).toHaveValue("S-012"));
    await user.clear(screenNr);
    await user.type(screenNr, "S-013");
    await saveWhenReady(user);
    await giveReason(user);
    await waitFor(() => expect(sent(calls, "PUT")).toHaveLength(1));
    await waitFor(() => expect(unchanged()).toEqual([]));
  });

  it("saving a studyplan in its editor", async () => {
    const plan = {
      id: 5,
      uuid: "spl-1",
      version: 2,
      studyId: 9,
      studyUuid: "std-1",
      studyName: "TD-2025-001_NORMAL",
      calculationMode: "default",
      schedule: [
        {
          id: 1,
          fromVisitId: 1,
          toVisitId: 2,
          daysFromStart: 14,
          allowedDaysBefore: 1,
          allowedDaysAfter: 1,
          sequence: 1,
        },
        {
          id: 2,
          fromVisitId: 2,
          toVisitId: null,
          daysFromStart: 0,
          allowedDaysBefore: 1,
          allowedDaysAfter: 1,
          sequence: 2,
        },
      ],
    };
    const calls = stubApi((call) => {
      if (call.path === "/api/studyplans/spl-1" && call.method === "GET") return { data: plan };
      if (call.path === "/api/studyplans/spl-1" && call.method === "PUT")
        return { data: { ...plan, ...(call.body as object), version: 3 } };
      if (call.path === "/api/studies/std-1/visits")
        return list([
          { id: 1, uuid: "vis-1", name: "Screening", visitTypeId: 20, mandatory: 1 },
          { id: 2, uuid: "vis-2", name: "Week 2", visitTypeId: 60, mandatory: 1 },
        ]);
    });
    const user = userEvent.setup();
    const { client } = renderRoutes(
      [{ path: "/studyplans/:studyplanUuid/edit", element: <StudyplanEditor /> }],
      ["/studyplans/spl-1/edit"],
    );
    const unchanged = readBefore(client);
    // Counting from the previous visit moves every window of the study's assignments.
    const previous = await screen.findByRole("radio", { name: "From the previous visit" });
    await waitFor(() => expect(screen.getByRole("radio", { name: "From the first visit" })).toBeChecked());
    await user.click(previous);
    await saveWhenReady(user);
    expect(await screen.findByText("Studyplan saved successfully")).toBeInTheDocument();
    expect(sent(calls, "PUT")).toHaveLength(1);
    expect(unchanged()).toEqual([]);
  });
});
