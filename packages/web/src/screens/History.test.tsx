import { screen, within } from "@testing-library/react";
import type { HistoryEvent } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { Detail as PatientDetail } from "../resources/patients/patient-screens";
import { Detail as ProjectDetail } from "../resources/projects/project-screens";
import { Detail as DeviationDetail } from "../resources/protocol-deviations/protocol-deviation-screens";
import { Detail as StudyPatientDetail } from "../resources/study-patients/study-patient-screens";
import { Detail as StudyplanDetail } from "../resources/studyplans/studyplan-screens";
import { Detail as VisitDetail } from "../resources/visits/visit-screens";
import { type Call, defaultUser, renderRoutes, signedInAs, stubApi } from "./test-utils";

const event = (changes: HistoryEvent["changes"], reason: string | null = null): HistoryEvent => ({
  id: 7,
  at: "2026-03-01T10:20:30Z",
  userId: 1,
  userName: "Ada Admin",
  requestId: "r7",
  resource: "x",
  uuid: "x",
  action: "update",
  changes,
  reason,
});

/** The records whose history the tests show, one of each resource, as their detail screens read them. */
const assignment = {
  id: 4,
  uuid: "sp-4",
  version: 2,
  studyId: 2,
  patientId: 9,
  active: false,
  closeReason: "EOS",
  barcode: "BUD-000009",
  firstName: "Anna",
  lastName: "Kovács",
  studyWorkingName: "TD-2025-001_SUB-STUDY",
};

const project = {
  id: 1,
  uuid: "prj-1",
  version: 2,
  workingName: "HEART-FAIL III",
  details: {},
  finance: {},
  settings: {},
  siteIds: [],
};

const visit = {
  id: 5,
  uuid: "visit-5",
  version: 2,
  name: "Week 4",
  visitTypeId: 60,
  visitType: "Control",
};

const plan = {
  id: 1,
  uuid: "stp-1",
  version: 2,
  studyId: 1,
  studyName: "TD-2025-001_NORMAL",
  calculationMode: "default",
  schedule: [],
};

const patient = {
  id: 43,
  uuid: "pt-43",
  version: 3,
  barcode: "BUD-000043",
  status: 1,
  statusDetails: null,
  recorderSiteId: 2,
  addressId: 43,
  patientDetail: { firstName: "Anna", lastName: "Kovács", sex: "FEMALE" },
  address: { id: 43, city: "Debrecen", addressType: "DEFAULT" },
  contacts: [],
};

const deviation = {
  id: 8,
  uuid: "dev-8",
  version: 1,
  patientId: 43,
  patientName: "Kovács Anna",
  barcode: "BUD-000043",
  studyId: 1,
  studyName: "TD-2025-001_NORMAL",
  visitId: 5,
  visitName: "Week 4",
  siteId: 2,
  kind: "PROCEDURE",
  source: "MANUAL",
  severity: "MINOR",
  status: "OPEN",
};

/** Signed in as the administrator, the server answers the record at /api/{path}/{uuid} and its one history event. */
function serve(record: { uuid: string }, path: string, historyEvent: HistoryEvent) {
  stubApi(
    signedInAs(defaultUser, (call: Call) => {
      if (call.path === `/api/${path}/${record.uuid}`) return { data: record };
      if (call.path === "/api/audit") return { data: { items: [historyEvent] } };
      if (call.path === "/api/sites") return { data: { items: [], total: 0 } };
    }),
  );
}

const historyLines = async () => {
  const history = (await screen.findByRole("heading", { name: "History" })).closest("section") as HTMLElement;
  await within(history).findByText("Updated");
  return within(history)
    .getAllByRole("listitem")
    .map((item) => item.textContent ?? "")
    .filter((text) => !text.startsWith("Updated by")); // the event itself, not one of its changes
};

describe("History", () => {
  it("labels a study-patient's changes as its detail does: study by name, words for codes, the reason", async () => {
    serve(
      assignment,
      "study-patients",
      event(
        [
          // The server names referenced records; the web shows those names.
          {
            field: "studyId",
            old: 1,
            new: 2,
            oldText: "TD-2025-001_NORMAL",
            newText: "TD-2025-001_SUB-STUDY",
          },
          { field: "active", old: true, new: false },
          { field: "closeReason", old: null, new: "EOS" },
          { field: "closeDate", old: null, new: "2026-03-01" },
          { field: "closedBy", old: null, new: 1, oldText: null, newText: "Ada Admin" },
        ],
        "Wrong study picked",
      ),
    );
    renderRoutes(
      [{ path: "/study-patients/:itemId", element: <StudyPatientDetail /> }],
      ["/study-patients/sp-4"],
    );
    const lines = await historyLines();
    expect(lines).toContain("Study: TD-2025-001_NORMAL → TD-2025-001_SUB-STUDY");
    expect(lines).toContain("Status: Active → Closed");
    expect(lines).toContain("Close reason: — → End of study");
    expect(lines).toContain("Close date: — → 2026-03-01");
    expect(lines).toContain("Closed by: — → Ada Admin");
    expect(lines.join("\n")).not.toMatch(/studyId|closeReason|EOS|true|false/);
    expect(screen.getByText("Reason: Wrong study picked")).toBeInTheDocument();
  });

  it("labels nested keys (details.croId), phases and Yes/No as the project detail does", async () => {
    serve(
      project,
      "projects",
      event([
        {
          field: "details.croId",
          old: 1,
          new: 2,
          oldText: "Acme Clinical Research",
          newText: "Nordic Trials",
        },
        { field: "details.phase", old: 2, new: 3 },
        { field: "settings.rescreen", old: false, new: true },
      ]),
    );
    renderRoutes([{ path: "/projects/:itemId", element: <ProjectDetail /> }], ["/projects/prj-1"]);
    const lines = await historyLines();
    expect(lines).toContain("CRO: Acme Clinical Research → Nordic Trials");
    expect(lines).toContain("Phase: II → III");
    expect(lines).toContain("Rescreen: No → Yes");
    expect(lines.join("\n")).not.toMatch(/details\./);
  });

  it("shows each changed schedule row on its own line and the calculation mode in words", async () => {
    const rows = [
      "V3 Week 4: day 28 → 30, window −2/+2 → −3/+3",
      "V4 Week 8 added: day 56, window −3/+3",
      "V5 Follow up removed (day 90, window −7/+7)",
    ];
    serve(
      plan,
      "studyplans",
      event([
        { field: "calculationMode", old: "previous", new: "default" },
        { field: "schedule", old: [], new: [], lines: rows },
      ]),
    );
    renderRoutes(
      [{ path: "/studyplans/:studyplanUuid", element: <StudyplanDetail /> }],
      ["/studyplans/stp-1"],
    );
    const lines = await historyLines();
    expect(lines).toContain("Calculation: From the previous visit → From the first visit");
    for (const row of rows) expect(lines).toContain(row);
    expect(lines.join("\n")).not.toContain("[");
  });

  it("shows a value as its detail row does with the event's other values (a visit type's code and name)", async () => {
    serve(
      visit,
      "visits",
      event([
        { field: "visitTypeId", old: 20, new: 60 },
        { field: "visitType", old: "Screening", new: "Control" },
      ]),
    );
    renderRoutes([{ path: "/visits/:itemId", element: <VisitDetail /> }], ["/visits/visit-5"]);
    // One line: the type's name is no change of its own.
    expect(await historyLines()).toEqual(["Visit type: 20 Screening → 60 Control"]);
  });

  it("leaves out what a record tells of other records (whether a visit is in use)", async () => {
    serve(
      visit,
      "visits",
      event([
        { field: "name", old: "Week 3", new: "Week 4" },
        { field: "inUse", old: false, new: true },
      ]),
    );
    renderRoutes([{ path: "/visits/:itemId", element: <VisitDetail /> }], ["/visits/visit-5"]);
    expect(await historyLines()).toEqual(["Visit name: Week 3 → Week 4"]);
  });

  it("tells a patient's recorder site and contacts in words, with no id among its labels (issue 46)", async () => {
    // The server's answer of a patient's creation: the address row's id and type are never in it,
    // the site is named, the contacts are told item by item.
    serve(
      patient,
      "patients",
      event([
        { field: "barcode", old: null, new: "BUD-000043" },
        { field: "recorderSiteId", old: null, new: 2, oldText: null, newText: "BUD - Budapest clinic" },
        { field: "patientDetail.sex", old: null, new: "FEMALE" },
        { field: "address.city", old: "Budapest", new: "Debrecen" },
        {
          field: "contacts",
          old: [],
          new: [{ id: 7, contactType: "PHONE", value: "+36 30 123 4567", notes: null }],
          lines: ["Phone +36 30 123 4567 added"],
        },
      ]),
    );
    renderRoutes([{ path: "/patients/:itemId", element: <PatientDetail /> }], ["/patients/pt-43"]);
    const lines = await historyLines();
    expect(lines).toContain("Recorder site: — → BUD - Budapest clinic");
    expect(lines).toContain("Sex: — → Female");
    expect(lines).toContain("City: Budapest → Debrecen");
    expect(lines).toContain("Phone +36 30 123 4567 added");
    const text = lines.join("\n");
    expect(text).not.toMatch(/\bid\b/i);
    expect(text).not.toMatch(/PHONE|FEMALE|DEFAULT/);
  });

  it("labels a deviation's site as the Site, and its patient, study and visit by their rows", async () => {
    serve(
      deviation,
      "protocol-deviations",
      event([
        { field: "patientId", old: null, new: 43, oldText: null, newText: "Kovács Anna (BUD-000043)" },
        { field: "visitId", old: null, new: 5, oldText: null, newText: "Week 4" },
        { field: "siteId", old: null, new: 2, oldText: null, newText: "BUD - Budapest clinic" },
        { field: "severity", old: "MINOR", new: "MAJOR" },
      ]),
    );
    renderRoutes(
      [{ path: "/protocol-deviations/:itemId", element: <DeviationDetail /> }],
      ["/protocol-deviations/dev-8"],
    );
    expect(await historyLines()).toEqual([
      "Patient: — → Kovács Anna (BUD-000043)",
      "Visit: — → Week 4",
      "Site: — → BUD - Budapest clinic",
      "Severity: Minor → Major",
    ]);
  });
});
