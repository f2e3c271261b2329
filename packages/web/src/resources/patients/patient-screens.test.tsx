import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Patient, PatientSchedule, SiteOption } from "@trialdesk/domain";
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../../app/site";
import {
  type ApiHandler,
  type Call,
  defaultUser,
  fieldRefusal,
  giveReason,
  renderRoutes,
  saveWhenReady,
  stubApi,
} from "../../screens/test-utils";
import { Detail, Form } from "./patient-screens";

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

const schedule: PatientSchedule = {
  patientId: 1,
  assignments: [
    {
      studyPatientUuid: "sp-1",
      studyId: 10,
      studyUuid: "std-10",
      studyName: "TD-2025-001_NORMAL",
      screenNr: "S-001",
      startDate: "2026-03-01",
      active: true,
      closeDate: null,
      rows: [
        {
          visitId: 100,
          visitName: "Screening",
          visitType: 20,
          sequence: 1,
          expectedDate: "2026-03-02",
          windowStart: "2026-03-02",
          windowEnd: "2026-03-02",
          state: "done",
          bookedOutsideWindow: false,
          bookingPassed: false,
          patientVisitUuid: "pv-1",
          visitDate: "2026-03-02",
          visitTime: "11:45",
          visitStatus: "COMPLETED",
        },
        {
          visitId: 101,
          visitName: "Week 2",
          visitType: 60,
          sequence: 2,
          expectedDate: "2026-03-16",
          windowStart: "2026-03-14",
          windowEnd: "2026-03-18",
          state: "due",
          bookedOutsideWindow: false,
          bookingPassed: false,
          patientVisitUuid: null,
          visitDate: null,
          visitTime: null,
          visitStatus: null,
        },
      ],
    },
    {
      studyPatientUuid: "sp-2",
      studyId: 11,
      studyUuid: "std-11",
      studyName: "QA-2026-314_NORMAL",
      screenNr: null,
      startDate: "2026-01-01",
      active: false,
      closeDate: "2026-02-01",
      rows: [
        {
          visitId: 200,
          visitName: "Day 0",
          visitType: 20,
          sequence: 1,
          expectedDate: "2026-01-01",
          windowStart: "2026-01-01",
          windowEnd: "2026-01-01",
          state: "missed",
          bookedOutsideWindow: false,
          bookingPassed: false,
          patientVisitUuid: null,
          visitDate: null,
          visitTime: null,
          visitStatus: null,
        },
      ],
    },
  ],
};

describe("the patient detail's studies and visits (issue 46, point 11)", () => {
  it("shows each study assignment with its visit schedule, and Record visit comes back to the patient", async () => {
    const user = userEvent.setup();
    const calls = stubApi((call) =>
      call.path === "/api/worklist/schedule" ? { data: schedule } : server(call),
    );
    const { router } = renderRoutes(
      [
        { path: "/patients/:itemId", element: <Detail /> },
        { path: "/patient-visits/create", element: <h1>New visit form</h1> },
      ],
      ["/patients/pt-1"],
    );
    const section = await screen.findByRole("region", { name: "Studies and visits" });
    const active = await within(section).findByRole("table", {
      name: "Visit schedule of TD-2025-001_NORMAL",
    });
    expect(calls.find((c) => c.path === "/api/worklist/schedule")?.search.get("patientId")).toBe("1");
    expect(within(section).getByRole("link", { name: "TD-2025-001_NORMAL" })).toHaveAttribute(
      "href",
      "/study-patients/sp-1",
    );
    expect(
      within(active)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Visit", "Window", "State", "Recorded", "Actions"]);
    const [, done, due] = within(active).getAllByRole("row");
    expect(Array.from(done.children, (c) => c.textContent)).toEqual([
      "Screening",
      "2 Mar 2026",
      "Done",
      "2 Mar 2026, 11:45 Completed",
      "",
    ]);
    expect(Array.from(due.children, (c) => c.textContent).slice(0, 4)).toEqual([
      "Week 2",
      "14 Mar – 18 Mar 2026",
      "Due",
      "—",
    ]);
    // A closed assignment's visits are shown, with nothing to record.
    const closed = within(section).getByRole("table", { name: "Visit schedule of QA-2026-314_NORMAL" });
    expect(within(closed).getByText("Missed")).toBeInTheDocument();
    expect(within(closed).queryByRole("link", { name: /^Record visit/ })).not.toBeInTheDocument();

    await user.click(within(due).getByRole("link", { name: "Record visit Week 2 of Kovács Anna" }));
    expect(await screen.findByRole("heading", { name: "New visit form" })).toBeInTheDocument();
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      patientId: "1",
      studyId: "10",
      visitId: "101",
      returnTo: "/patients/pt-1",
    });
  });
});

describe("the patient form's duplicates (issue 46, point 4)", () => {
  const site = {
    id: 7,
    uuid: "site-00000000-0000-4000-8000-000000000007",
    code: "BUD",
    shortName: "Budapest CRC",
    city: "Budapest",
  } as SiteOption;
  const existing = {
    id: 12,
    uuid: "pt-00000000-0000-4000-8000-000000000012",
    barcode: "BUD-000012",
    firstName: "Éva",
    lastName: "Kovács",
    ssn: null,
    projectInternalCode: null,
    status: 1,
  };
  const found = (items: unknown[]) => ({
    data: { items, pagination: { page: 1, pageSize: 100, total: items.length } },
  });
  const routes = [
    { path: "/patients/create", element: <Form /> },
    { path: "/patients/:itemId/edit", element: <Form /> },
  ].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));

  /** The API of the form: the site, the same-name lookup's answer and the save's (`save`). */
  function api(sameName: unknown[], save: ApiHandler, record?: Patient) {
    return stubApi((call) => {
      if (call.path === "/api/me/sites") return { data: { items: [site] } };
      if (call.path === `/api/sites/${site.uuid}`) return { data: { ...site, countryCode: "HU" } };
      if (call.path === "/api/patients" && call.method === "GET") return found(sameName);
      if (record && call.path === `/api/patients/${record.uuid}` && call.method === "GET")
        return { data: record };
      if (call.method === "POST" || call.method === "PUT") return save(call);
      return undefined;
    });
  }
  const created = (call: Call) => ({
    status: 201,
    data: { ...(call.body as object), id: 40, version: 1, barcode: "BUD-000040" },
  });

  beforeEach(() => localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid));

  async function typePatient(user: ReturnType<typeof userEvent.setup>, ssn = "") {
    await user.type(await screen.findByLabelText("First name"), " Eva");
    await user.type(screen.getByLabelText("Last name"), "KOVACS");
    if (ssn) await user.type(screen.getByLabelText("SSN"), ssn);
    await user.type(screen.getByLabelText("Birth date"), "1975-03-04");
  }

  it("asks before saving a patient another patient of the site may be, and Save anyway sends it confirmed", async () => {
    const user = userEvent.setup();
    const calls = api([existing], created);
    renderRoutes(routes, ["/patients/create"]);
    await typePatient(user);
    await saveWhenReady(user);
    const dialog = await screen.findByRole("dialog", { name: "Possible duplicate patient" });
    expect(dialog).toHaveTextContent(
      "A patient with this name and birth date exists at this site: BUD-000012. Save this patient anyway?",
    );
    // Looked up at the site as the server compares them.
    const lookup = calls.find((c) => c.path === "/api/patients" && c.method === "GET") as Call;
    expect(Object.fromEntries(lookup.search)).toMatchObject({
      format: "select",
      siteId: "7",
      birthDate: "1975-03-04",
      firstName: " Eva",
      lastName: "KOVACS",
    });
    // No: nothing is sent, the form stays as typed.
    await user.click(within(dialog).getByRole("button", { name: "No" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === "POST")).toEqual([]);
    expect(screen.getByLabelText("Last name")).toHaveValue("KOVACS");
    // Asked again; Save anyway sends the save with the confirmation.
    await saveWhenReady(user);
    const again = await screen.findByRole("dialog", { name: "Possible duplicate patient" });
    await user.click(within(again).getByRole("button", { name: "Save anyway" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "POST")).toHaveLength(1));
    const post = calls.find((c) => c.method === "POST") as Call;
    expect(post.path).toBe("/api/patients");
    expect(post.body).toMatchObject({
      confirmDuplicate: true,
      recorderSiteId: 7,
      patientDetail: { firstName: " Eva", lastName: "KOVACS", birthDate: "1975-03-04" },
    });
    expect(await screen.findByText("Patient created")).toBeInTheDocument();
  });

  it("saves without asking when nobody else has the name and birth date, and shows an SSN refusal on its field", async () => {
    const user = userEvent.setup();
    const message = "A patient with this SSN exists: BUD-000003";
    const calls = api([], () => fieldRefusal("patientDetail.ssn", message));
    renderRoutes(routes, ["/patients/create"]);
    await typePatient(user, "123 456 789");
    await saveWhenReady(user);
    await waitFor(() => expect(calls.filter((c) => c.method === "POST")).toHaveLength(1));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(calls.find((c) => c.method === "POST")?.body).not.toHaveProperty("confirmDuplicate");
    const ssn = screen.getByLabelText("SSN");
    await waitFor(() => expect(ssn).toHaveAttribute("aria-invalid", "true"));
    expect(ssn).toHaveAccessibleDescription(expect.stringContaining(message));
  });

  it("does not ask an edit that keeps its name and birth date (the server does not ask it either)", async () => {
    const user = userEvent.setup();
    const record = {
      ...patient,
      uuid: "pt-00000000-0000-4000-8000-000000000040",
      barcode: "BUD-000040",
      recorderSiteId: 7,
      patientDetail: {
        firstName: "Eva",
        lastName: "Kovacs",
        ssn: null,
        birthName: null,
        birthDate: "1975-03-04",
        birthCountryCode: null,
        birthCity: null,
        motherName: null,
        sex: "FEMALE",
        notes: null,
      },
      address: {
        id: 3,
        countryCode: null,
        city: null,
        streetAddress: null,
        postalCode: null,
        additionalAddressLine: null,
        addressType: "DEFAULT",
      },
      contacts: [{ id: 1, contactType: "PHONE", value: "+36 30 555 1234", notes: null }],
    } as Patient;
    const calls = api(
      [existing, { ...existing, id: 1, uuid: record.uuid, barcode: record.barcode }],
      (call) => ({ data: { ...(call.body as object), version: 2 } }),
      record,
    );
    renderRoutes(routes, [`/patients/${record.uuid}/edit`]);
    await waitFor(() => expect(screen.getByLabelText("First name")).toHaveValue("Eva"));
    await user.type(screen.getByLabelText("City"), "Szeged");
    await saveWhenReady(user);
    // An edit of a patient says why (issue 46, point 1).
    await giveReason(user);
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(calls.find((c) => c.method === "PUT")?.body).not.toHaveProperty("confirmDuplicate");
  });
});
