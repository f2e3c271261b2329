import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  emptyPatientVisit,
  normalizePatientVisit,
  type SignedInUser,
  type SiteOption,
  toIsoDate,
  type VisitOption,
} from "@trialdesk/domain";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../../app/site";
import { FormScreen } from "../../screens/FormScreen";
import {
  type Call,
  defaultUser,
  fieldRefusal,
  giveReason,
  renderRoutes,
  saveWhenReady,
  signedInAs,
  stubApi,
} from "../../screens/test-utils";
import { useFormState } from "../../screens/useFormState";
import {
  Detail,
  Form,
  formOf,
  List,
  PatientVisitFields,
  type PatientVisitForm,
  typedTime,
} from "./patient-visit-screens";

const site = { id: 7, uuid: "site-7", code: "BUD", shortName: "Budapest CRC" } as SiteOption;

const patients = [
  { id: 1, barcode: "BUD-000001", firstName: "Anna", lastName: "Kovács" },
  { id: 2, barcode: "BUD-000002", firstName: "László", lastName: "Nagy" },
];
const studyPatients: Record<number, object[]> = {
  1: [
    {
      studyId: 10,
      studyUuid: "std-10",
      active: true,
      projectInternalCode: "ACRMDPHFL001",
      studyWorkingName: "TD-2025-001_NORMAL",
    },
    {
      studyId: 11,
      studyUuid: "std-11",
      active: false,
      projectInternalCode: "ACRMDPHFL001",
      studyWorkingName: "TD-2025-001_SUB-STUDY",
    },
  ],
  2: [
    {
      studyId: 10,
      studyUuid: "std-10",
      active: true,
      projectInternalCode: "ACRMDPHFL001",
      studyWorkingName: "TD-2025-001_NORMAL",
    },
  ],
};
const visit = (visitId: number, visitName: string, recorded?: Partial<VisitOption>): VisitOption => ({
  visitName,
  visitUuid: `visit-${visitId}`,
  visitId,
  visitType: 60,
  mandatory: 1,
  visitStatus: null,
  visitResult: null,
  visitDate: null,
  visitTime: null,
  notes: null,
  patientVisitId: null,
  patientVisitUuid: null,
  patientVisitVersion: null,
  ...recorded,
});
/** Anna's recorded Screening visit in the study, as the patient visit record reads. */
const recordedScreening = {
  id: 55,
  uuid: "pv-55",
  version: 4,
  patientId: 1,
  studyId: 10,
  visitId: 100,
  visitDate: "2025-03-10",
  visitTime: "09:30",
  visitStatus: "COMPLETED",
  visitResult: "OK",
  notes: "Fasting",
};
/** Screening counts by its completed record; the no-show before it stays on file (issue 43). */
const screening = visit(100, "Screening", {
  visitStatus: "COMPLETED",
  visitResult: "OK",
  visitDate: "2025-03-10",
  visitTime: "09:30",
  notes: "Fasting",
  patientVisitId: 55,
  patientVisitUuid: "pv-55",
  patientVisitVersion: 4,
  state: "out-of-window",
  records: [
    {
      patientVisitId: 55,
      patientVisitUuid: "pv-55",
      visitDate: "2025-03-10",
      visitTime: "09:30",
      visitStatus: "COMPLETED",
      visitResult: "OK",
      notes: "Fasting",
    },
    {
      patientVisitId: 50,
      patientVisitUuid: "pv-50",
      visitDate: "2025-03-03",
      visitTime: null,
      visitStatus: "NO_SHOW",
      visitResult: null,
      notes: "Ill, rang to rebook",
    },
  ],
  deviations: [
    {
      uuid: "dev-1",
      visitId: 100,
      patientVisitId: 55,
      kind: "OUT_OF_WINDOW",
      daysOutside: 2,
      status: "REPORTED",
      severity: "MINOR",
      noLongerApplies: true,
      description: "Visit completed 2 days after its window closed.",
    },
  ],
});
// Week 2's planned window (the visit-windows engine's answer, issue 12).
const week2 = visit(101, "Week 2", {
  expectedDate: "2026-03-14",
  windowStart: "2026-03-12",
  windowEnd: "2026-03-16",
  state: "due",
});
// Week 4's booking passed without an outcome; Week 6 was missed (issue 43).
const week4 = visit(102, "Week 4", {
  visitStatus: "BOOKED",
  visitDate: "2026-03-27",
  patientVisitId: 60,
  patientVisitUuid: "pv-60",
  state: "overdue",
  bookingPassed: true,
  records: [
    {
      patientVisitId: 60,
      patientVisitUuid: "pv-60",
      visitDate: "2026-03-27",
      visitTime: null,
      visitStatus: "BOOKED",
      visitResult: null,
      notes: null,
    },
  ],
});
const week6 = visit(103, "Week 6", { state: "missed" });
const visitsOf = (studyId: number) =>
  studyId === 10
    ? { 100: screening, 101: week2, 102: week4, 103: week6 }
    : { 200: visit(200, "Sub-study screening") };

const page = (items: object[]) => ({ items, pagination: { page: 1, pageSize: 100, total: items.length } });

function server(call: Call) {
  if (call.path === "/api/me/sites") return { data: { items: [site] } };
  if (call.path === "/api/patients/1") {
    const { id, barcode, firstName, lastName } = patients[0];
    return { data: { id, barcode, patientDetail: { firstName, lastName } } };
  }
  if (call.path === "/api/patients") {
    const term = (call.search.get("search") ?? "").toLowerCase();
    return {
      data: page(patients.filter((p) => `${p.lastName} ${p.firstName}`.toLowerCase().includes(term))),
    };
  }
  if (call.path === "/api/study-patients")
    return { data: page(studyPatients[Number(call.search.get("pid"))] ?? []) };
  if (call.path === "/api/patient-visit-detail") {
    const studyId = Number(call.search.get("studyId"));
    return { data: { patient: {}, study: { studyId }, visits: visitsOf(studyId) } };
  }
}

function Harness() {
  // As FormScreen sets it up: the domain's normalizer runs on every change.
  const form = useFormState<PatientVisitForm>(() => ({ ...emptyPatientVisit(), uuid: "pv-new" }), {
    normalize: normalizePatientVisit,
  });
  return (
    <>
      <PatientVisitFields form={form} site={site} />
      <output aria-label="form data">{JSON.stringify(form.formData)}</output>
    </>
  );
}

const formData = () => JSON.parse(screen.getByLabelText("form data").textContent ?? "{}");

/** The fields alone against the fake server; returns its calls and a user to click through them. */
function renderFields() {
  const calls = stubApi(server);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      {/* The earlier records and deviations link to their own screens. */}
      <MemoryRouter>
        <Harness />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { calls, u: userEvent.setup() };
}

async function choose(u: ReturnType<typeof userEvent.setup>, field: string, option: string | RegExp) {
  await u.click(screen.getByRole("combobox", { name: field }));
  await u.click(await screen.findByRole("option", { name: option }));
}

/** Anna (BUD-000001) and her study TD-2025-001_NORMAL, the study with the recorded Screening. */
async function chooseAnnasStudy(u: ReturnType<typeof userEvent.setup>) {
  await choose(u, "Patient", /^Kovács Anna/);
  await choose(u, "Study", "ACRMDPHFL001 TD-2025-001_NORMAL");
}

// Many clicks through three dependent selects: room for a busy machine.
const clicksTimeout = 20_000;

describe("the patient visit editor", { timeout: clicksTimeout }, () => {
  it("asks for a patient, then a study, then a visit, each choice resetting what depends on it", async () => {
    const { calls, u } = renderFields();
    const study = screen.getByRole("combobox", { name: "Study" });
    const visitSelect = screen.getByRole("combobox", { name: "Visit" });
    expect(study).toHaveTextContent("Select a patient first");
    expect(study).toBeDisabled();
    expect(visitSelect).toHaveTextContent("Select a study first");
    expect(visitSelect).toBeDisabled();
    await waitFor(() =>
      expect(screen.getByRole("combobox", { name: "Patient" })).toHaveTextContent(
        "Type to select a patient ...",
      ),
    );
    expect(screen.getByRole("combobox", { name: "Visit status" })).toHaveTextContent("Please select ...");
    expect(screen.queryByRole("combobox", { name: "Visit result" })).not.toBeInTheDocument();

    // The patient lookup: the active site's assigned patients, searched on the server.
    await u.click(screen.getByRole("combobox", { name: "Patient" }));
    await u.type(screen.getByPlaceholderText("Search..."), "nagy");
    const searchedFor = () =>
      calls.find((c) => c.path === "/api/patients" && c.search.get("search") === "nagy");
    await waitFor(() => expect(searchedFor()).toBeDefined());
    expect(Object.fromEntries(searchedFor()?.search ?? [])).toMatchObject({
      forSelect: "true",
      siteId: "7",
      onlyAssigned: "true",
      pagesize: "100",
    });
    await waitFor(() => expect(screen.queryByRole("option", { name: /^Kovács/ })).not.toBeInTheDocument());
    await u.click(screen.getByRole("option", { name: "Nagy László (BUD-000002)" }));
    expect(formData()).toMatchObject({ patientId: 2, studyId: null, visitId: null, uuid: "pv-new" });
    expect(study).toHaveTextContent("Type to select a study ...");

    await choose(u, "Study", "ACRMDPHFL001 TD-2025-001_NORMAL");
    expect(calls.some((c) => c.path === "/api/study-patients" && c.search.get("pid") === "2")).toBe(true);
    expect(visitSelect).toHaveTextContent("Type to select a visit ...");
    await choose(u, "Visit", /^Week 2/);
    expect(formData()).toMatchObject({ patientId: 2, studyId: 10, visitId: 101, visitStatus: null });

    // Typed values go when the study changes; the patient stays.
    await u.type(screen.getByLabelText("Notes"), "early");
    await choose(u, "Study", "ACRMDPHFL001 TD-2025-001_NORMAL");
    expect(formData()).toMatchObject({ patientId: 2, studyId: 10, visitId: null, notes: "" });

    // Another patient empties everything else.
    await choose(u, "Patient", "Kovács Anna (BUD-000001)");
    expect(formData()).toMatchObject({ patientId: 1, studyId: null, visitId: null });
    await choose(u, "Study", "ACRMDPHFL001 TD-2025-001_SUB-STUDY (closed)");
    const detailCall = calls.filter((c) => c.path === "/api/patient-visit-detail").at(-1);
    expect(Object.fromEntries(detailCall?.search ?? [])).toEqual({ patientId: "1", studyId: "11" });
  });

  it("never reopens a visit's old record: it starts a new one and lists the earlier records and deviations", async () => {
    const { u } = renderFields();
    await chooseAnnasStudy(u);
    await choose(u, "Visit", /^Screening/);
    // A new record of the visit, nothing of the old ones carried over (issue 43).
    const data = formData();
    expect(data).toMatchObject({ patientId: 1, studyId: 10, visitId: 100, uuid: "pv-new" });
    expect(data).toMatchObject({ visitDate: null, visitTime: null, visitStatus: null, notes: "" });
    expect(data.id).toBeUndefined();
    expect(screen.getByLabelText("Visit time")).toHaveValue("");
    expect(screen.getByLabelText("Notes")).toHaveValue("");

    const records = screen.getByRole("table", { name: "Earlier records of this visit" });
    expect(
      within(records)
        .getAllByRole("row")
        .slice(1)
        .map((row) => Array.from(row.children, (c) => c.textContent).slice(0, 3)),
    ).toEqual([
      ["2025-03-10 09:30", "Completed", "Fasting"],
      ["2025-03-03", "No show", "Ill, rang to rebook"],
    ]);
    expect(within(records).getByRole("link", { name: "Open the record of 2025-03-03" })).toHaveAttribute(
      "href",
      "/patient-visits/pv-50/edit",
    );

    const deviations = screen.getByRole("table", { name: "Deviations of this visit" });
    const [, deviation] = within(deviations).getAllByRole("row");
    expect(within(deviation).getByRole("link", { name: "Out of window" })).toHaveAttribute(
      "href",
      "/protocol-deviations/dev-1",
    );
    expect(deviation).toHaveTextContent("+2 days");
    expect(deviation).toHaveTextContent("Reported");
    expect(deviation).toHaveTextContent("No longer applies");
    expect(screen.getByText("State:")).toHaveTextContent("Out of window");

    // A visit without records lists none.
    await choose(u, "Visit", /^Week 2/);
    expect(formData()).toMatchObject({ visitId: 101, uuid: "pv-new" });
    expect(screen.queryByRole("table", { name: "Earlier records of this visit" })).not.toBeInTheDocument();
    expect(screen.queryByRole("table", { name: "Deviations of this visit" })).not.toBeInTheDocument();
  });

  it("says when the visit's booked date has passed, and shows a missed visit as Missed", async () => {
    const { u } = renderFields();
    await chooseAnnasStudy(u);
    await choose(u, "Visit", /^Week 4/);
    expect(screen.getByText("Booked date passed: record the outcome")).toHaveAttribute("role", "status");
    expect(screen.getByText("State:")).toHaveTextContent("Overdue");
    // The booking is an earlier record, not the form's.
    expect(formData()).toMatchObject({ visitId: 102, visitDate: null, visitStatus: null });
    expect(screen.getByRole("table", { name: "Earlier records of this visit" })).toBeInTheDocument();

    await choose(u, "Visit", /^Week 6/);
    expect(screen.getByText("State:")).toHaveTextContent("Missed");
    expect(screen.queryByText("Booked date passed: record the outcome")).not.toBeInTheDocument();
  });

  it("offers the result only for a COMPLETED visit, and lets the patient list include unassigned patients", async () => {
    const { calls, u } = renderFields();
    await choose(u, "Visit status", "Completed");
    await choose(u, "Visit result", "Failed");
    expect(formData()).toMatchObject({ visitStatus: "COMPLETED", visitResult: "FAILED" });
    await choose(u, "Visit status", "No show");
    expect(screen.queryByRole("combobox", { name: "Visit result" })).not.toBeInTheDocument();
    expect(formData()).toMatchObject({ visitStatus: "NO_SHOW", visitResult: null });

    await u.click(screen.getByRole("checkbox", { name: "Only assigned patients" }));
    await u.click(screen.getByRole("combobox", { name: "Patient" }));
    await screen.findByRole("option", { name: /^Kovács Anna/ });
    const last = calls.filter((c) => c.path === "/api/patients").at(-1);
    expect(last?.search.has("onlyAssigned")).toBe(false);
    expect(typedTime("0930")).toBe("09:30");
  });

  it("shows the server's reason in an error text bar at the top of the form when saving fails", async () => {
    const calls = stubApi((call) =>
      call.method === "POST"
        ? fieldRefusal("studyId", "The patient is not assigned to this study")
        : server(call),
    );
    const u = userEvent.setup();
    renderRoutes(
      [
        { path: "/patient-visits/create", element: <FormScreen description={formOf(site)} /> },
        { path: "/patient-visits/:itemId/edit", element: <FormScreen description={formOf(site)} /> },
      ],
      ["/patient-visits/create"],
    );
    expect(await screen.findByRole("heading", { name: "Add new visit" })).toBeInTheDocument();
    await chooseAnnasStudy(u);
    await choose(u, "Visit", /^Week 2/);
    await saveWhenReady(u);
    const bar = await screen.findByText("Invalid field data: The patient is not assigned to this study");
    expect(bar).toHaveAttribute("role", "alert");
    const post = calls.find((c) => c.method === "POST");
    expect(post?.path).toBe("/api/patient-visits");
    expect(post?.body).toMatchObject({ visitId: 101 });
  });

  it("shows the chosen visit's planned window and an amber, non-blocking note for a date outside it", async () => {
    const { u } = renderFields();
    await chooseAnnasStudy(u);
    expect(screen.queryByText(/Planned window/)).not.toBeInTheDocument();
    await choose(u, "Visit", /^Week 2/);
    expect(
      screen.getByText("Planned window: 12 Mar – 16 Mar 2026 (expected 14 Mar 2026)"),
    ).toBeInTheDocument();
    const date = screen.getByLabelText("Visit date");
    await u.type(date, "2026-03-17");
    const note = await screen.findByText("Outside the planned window");
    expect(note).toHaveAttribute("role", "status");
    expect(note).toHaveClass("text-amber-900");
    // The last day of the window is inside it.
    await u.clear(date);
    await u.type(date, "2026-03-16");
    await waitFor(() => expect(screen.queryByText("Outside the planned window")).not.toBeInTheDocument());
    // A visit the plan gives no window shows none.
    await choose(u, "Visit", /^Screening/);
    expect(screen.queryByText(/Planned window/)).not.toBeInTheDocument();
  });
});

describe("the patient visit form (issue 12 Record visit, issue 15 bug 15)", {
  timeout: clicksTimeout,
}, () => {
  const routes = [
    { path: "/worklist", element: <h1>Worklist page</h1> },
    { path: "/patient-visits/create", element: <Form /> },
    { path: "/patient-visits/:itemId/edit", element: <Form /> },
  ].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));
  const recorded = { ...recordedScreening, patientName: "Kovács Anna (BUD-000001)" };
  const saving = (call: Call) => {
    if (call.method === "POST")
      return { status: 201, data: { ...(call.body as object), id: 77, version: 1 } };
    if (call.method === "PUT") return { data: { ...(call.body as object), version: 5 } };
    if (call.path === "/api/patient-visits/pv-55") return { data: recorded };
    return server(call);
  };
  beforeEach(() => localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid));
  afterEach(() => localStorage.clear());

  it("opens with the worklist's patient, study and visit chosen and goes back to the worklist after saving", async () => {
    const calls = stubApi(saving);
    const u = userEvent.setup();
    const { router } = renderRoutes(routes, [
      "/patient-visits/create?patientId=1&studyId=10&visitId=101&returnTo=%2Fworklist%3Fstate%3Doverdue",
    ]);
    expect(await screen.findByRole("heading", { name: "Add new visit" })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("combobox", { name: "Patient" })).toHaveTextContent("Kovács Anna (BUD-000001)"),
    );
    await waitFor(() =>
      expect(screen.getByRole("combobox", { name: "Study" })).toHaveTextContent("TD-2025-001_NORMAL"),
    );
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Visit" })).toHaveTextContent("Week 2"));
    expect(screen.getByText(/^Planned window: 12 Mar – 16 Mar 2026/)).toBeInTheDocument();
    // Recorded from the worklist, a visit starts as done today (issue 46): Completed, today's date.
    expect(screen.getByRole("combobox", { name: "Visit status" })).toHaveTextContent("Completed");
    const date = screen.getByLabelText("Visit date");
    expect(date).toHaveValue(toIsoDate(new Date()));
    await u.clear(date);
    await u.type(date, "2026-03-14");
    // A time typed with a one-digit hour is that hour, not "93:0".
    const time = screen.getByLabelText("Visit time");
    await u.clear(time);
    await u.type(time, "9:30");
    expect(time).toHaveValue("09:30");
    await saveWhenReady(u);
    expect(await screen.findByRole("heading", { name: "Worklist page" })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe("/worklist?state=overdue");
    const post = calls.find((c) => c.method === "POST");
    expect(post?.body).toMatchObject({
      patientId: 1,
      studyId: 10,
      visitId: 101,
      visitStatus: "COMPLETED",
      visitDate: "2026-03-14",
      visitTime: "09:30",
    });
  });

  it("reads a time as it is typed, key by key: a one-digit hour gets its zero, an impossible hour stays for the check", () => {
    const typed = (keys: string) => [...keys].reduce((value, key) => typedTime(value + key), "");
    expect(typed("0930")).toBe("09:30");
    expect(typed("1430")).toBe("14:30");
    expect(typed("14:30")).toBe("14:30");
    expect(typed("9:30")).toBe("09:30");
    expect(typed("930")).toBe("09:30");
    expect(typed("7.15")).toBe("07:15");
    expect(typed("9")).toBe("9");
    expect(typed("9:")).toBe("09:");
    expect(typed("2359")).toBe("23:59");
    expect(typed("2500")).toBe("25:00");
    expect(typed("12345")).toBe("12:34");
    // Pasted whole.
    expect(typedTime("9:30")).toBe("09:30");
    expect(typedTime("09:30")).toBe("09:30");
  });

  it("titles a new visit Add new visit even when its visit has records", async () => {
    stubApi(saving);
    const u = userEvent.setup();
    renderRoutes(routes, ["/patient-visits/create"]);
    expect(await screen.findByRole("heading", { name: "Add new visit" })).toBeInTheDocument();
    await chooseAnnasStudy(u);
    // The patient already has Screening: Save still records a new one (issue 43).
    await choose(u, "Visit", /^Screening/);
    await screen.findByRole("table", { name: "Earlier records of this visit" });
    expect(screen.getByRole("heading", { name: "Add new visit" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Modify patient visit" })).not.toBeInTheDocument();
  });

  it("asks first when the visit already has a completed record, and records another only on Yes", async () => {
    const calls = stubApi(saving);
    const u = userEvent.setup();
    renderRoutes(routes, ["/patient-visits/create"]);
    expect(await screen.findByRole("heading", { name: "Add new visit" })).toBeInTheDocument();
    await chooseAnnasStudy(u);
    await choose(u, "Visit", /^Screening/);
    await choose(u, "Visit status", "Completed");
    await u.type(screen.getByLabelText("Visit date"), "2025-03-12");
    await saveWhenReady(u);
    const question = await screen.findByRole("dialog", { name: "Visit already completed" });
    expect(question).toHaveTextContent("This visit already has a completed record. Record another one?");
    await u.click(within(question).getByRole("button", { name: "No" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await saveWhenReady(u);
    await u.click(await screen.findByRole("button", { name: "Yes, record another" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    const post = calls.find((c) => c.method === "POST");
    expect(post?.path).toBe("/api/patient-visits");
    expect(post?.body).toMatchObject({ visitId: 100, visitStatus: "COMPLETED", visitDate: "2025-03-12" });
    expect(post?.body).not.toHaveProperty("id");
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
  });

  it("refuses a completed visit without a date on the field, before asking the server", async () => {
    const calls = stubApi(saving);
    const u = userEvent.setup();
    renderRoutes(routes, ["/patient-visits/create"]);
    expect(await screen.findByRole("heading", { name: "Add new visit" })).toBeInTheDocument();
    await chooseAnnasStudy(u);
    await choose(u, "Visit", /^Week 2/);
    await choose(u, "Visit status", "Completed");
    await saveWhenReady(u);
    expect(await screen.findByText("A completed or arrived visit needs its date")).toBeInTheDocument();
    expect(screen.getByLabelText("Visit date")).toHaveAttribute("aria-invalid", "true");
    expect(calls.some((c) => c.method === "POST")).toBe(false);
  });

  it("edits a record opened by its own uuid, without asking, and lists only the visit's other records", async () => {
    const calls = stubApi(saving);
    const u = userEvent.setup();
    renderRoutes(routes, ["/patient-visits/pv-55/edit"]);
    expect(await screen.findByRole("heading", { name: "Modify patient visit" })).toBeInTheDocument();
    const records = await screen.findByRole("table", { name: "Earlier records of this visit" });
    expect(within(records).getAllByRole("row")).toHaveLength(2);
    expect(records).toHaveTextContent("2025-03-03");
    expect(records).not.toHaveTextContent("2025-03-10");
    await u.type(screen.getByLabelText("Notes"), ", late");
    await saveWhenReady(u);
    // A recorded visit's edit says why (issue 46, point 1).
    await giveReason(u, "Late entry");
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    const put = calls.find((c) => c.method === "PUT");
    expect(put?.path).toBe("/api/patient-visits/pv-55");
    expect(put?.body).toMatchObject({ id: 55, version: 4, notes: "Fasting, late" });
  });

  it("on a recorded visit, choosing another visit says that a new one will be recorded", async () => {
    const calls = stubApi(saving);
    const u = userEvent.setup();
    renderRoutes(routes, ["/patient-visits/pv-55/edit"]);
    expect(await screen.findByRole("heading", { name: "Modify patient visit" })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("combobox", { name: "Visit" })).toHaveTextContent("Screening"),
    );
    expect(screen.queryByText(/Saving records a new visit/)).not.toBeInTheDocument();
    await choose(u, "Visit", /^Week 2/);
    expect(await screen.findByRole("heading", { name: "Add new visit" })).toBeInTheDocument();
    expect(
      screen.getByText("Saving records a new visit; the visit opened here stays as it was."),
    ).toHaveAttribute("role", "status");
    await saveWhenReady(u);
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
  });
});

describe("source verification and queries on patient visits (issue 44)", { timeout: clicksTimeout }, () => {
  const monitor: SignedInUser = {
    ...defaultUser,
    id: 3,
    uuid: "mon-3",
    email: "monitor@example.com",
    profile: { firstName: "Mona", lastName: "Monitor" },
    isAdmin: false,
    kind: "monitor",
  };
  /** Anna's Screening as staff read it: verified, with two queries not closed. */
  const verified = {
    ...recordedScreening,
    patientName: "Kovács Anna",
    studyName: "TD-2025-001_NORMAL",
    visitName: "Screening",
    screenNumber: "S-001",
    sdvStatus: "VERIFIED",
    sdvVerifiedAt: "2026-03-15T11:00:00Z",
    sdvVerifiedByName: "Mona Monitor",
    openQueries: 2,
  };
  const visitQueries = [
    {
      id: 1,
      uuid: "qry-1",
      text: "Source shows 09:45, not 09:30",
      status: "OPEN",
      createdAt: "2026-03-16T09:00:00Z",
    },
    {
      id: 2,
      uuid: "qry-2",
      text: "Fasting confirmed?",
      status: "ANSWERED",
      createdAt: "2026-03-16T09:05:00Z",
    },
  ];
  const routes = [
    { path: "/patient-visits", element: <List /> },
    { path: "/patient-visits/:itemId", element: <Detail /> },
    { path: "/patient-visits/:itemId/edit", element: <Form /> },
  ].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));
  const visitServer =
    (visit: object) =>
    (call: Call): ReturnType<typeof server> | { data: unknown } => {
      if (call.path === "/api/patient-visits/pv-55") return { data: { barcode: "BUD-000001", ...visit } };
      if (call.path === "/api/queries") return { data: page(visitQueries) };
      if (call.path === "/api/audit") return { data: { items: [] } };
      return server(call);
    };
  const value = (label: string) => screen.getByText(label, { selector: "dt" }).nextElementSibling;
  beforeEach(() => localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid));
  afterEach(() => localStorage.clear());

  it("shows staff who verified the visit and when, its open queries and its queries' list", async () => {
    const calls = stubApi(visitServer(verified));
    renderRoutes(routes, ["/patient-visits/pv-55"]);
    await screen.findByText("Source verification", { selector: "dt" });
    expect(value("Patient")).toHaveTextContent("Kovács Anna");
    expect(value("Source verification")).toHaveTextContent("Verified by Mona Monitor on 15 Mar 2026");
    expect(within(value("Open queries") as HTMLElement).getByRole("link")).toHaveTextContent(
      "2 open queries",
    );
    expect(screen.getByRole("link", { name: "2 open queries" })).toHaveAttribute(
      "href",
      "/queries?patientVisitId=55",
    );
    const queries = await screen.findByRole("table", { name: "Queries of this visit" });
    const [, first, second] = within(queries).getAllByRole("row");
    expect(Array.from(first.children, (c) => c.textContent)).toEqual([
      "Source shows 09:45, not 09:30",
      "Open",
      "16 Mar 2026",
    ]);
    expect(second).toHaveTextContent("Answered");
    expect(within(first).getByRole("link")).toHaveAttribute("href", "/queries/qry-1");
    expect(calls.find((c) => c.path === "/api/queries")?.search.get("patientVisitId")).toBe("55");
    // Staff answer queries; only a monitor raises one.
    expect(screen.queryByRole("link", { name: "Raise query" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Edit" })).toBeInTheDocument();
  });

  it("words each state of the verification", async () => {
    const states = {
      PENDING: "Pending",
      REOPENED: "Reopened: changed since verified, to verify again",
      NOT_REQUIRED: "Not required",
    };
    for (const [sdvStatus, text] of Object.entries(states)) {
      stubApi(visitServer({ ...verified, sdvStatus, sdvVerifiedAt: null, openQueries: 0 }));
      const { unmount } = renderRoutes(routes, ["/patient-visits/pv-55"]);
      await screen.findByText("Source verification", { selector: "dt" });
      expect(value("Source verification")).toHaveTextContent(text);
      expect(value("Open queries")).toHaveTextContent("None");
      unmount();
    }
  });

  it("shows a monitor the visit by barcode, never the patient's name, with Raise query and no Edit", async () => {
    const { patientName: _, ...withoutName } = verified;
    const calls = stubApi(signedInAs(monitor, visitServer(withoutName)));
    renderRoutes(routes, ["/patient-visits/pv-55"]);
    await screen.findByText("Source verification", { selector: "dt" });
    await waitFor(() => expect(value("Barcode")).toHaveTextContent("BUD-000001"));
    expect(value("Screen Nr")).toHaveTextContent("S-001");
    expect(screen.queryByText("Patient", { selector: "dt" })).not.toBeInTheDocument();
    expect(value("Source verification")).toHaveTextContent("Verified by Mona Monitor on 15 Mar 2026");
    expect(await screen.findByRole("link", { name: "Raise query" })).toHaveAttribute(
      "href",
      "/queries/create?patientVisitId=55",
    );
    expect(await screen.findByRole("table", { name: "Queries of this visit" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "History" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Edit" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Remove|Delete/ })).not.toBeInTheDocument();
    // The patient visit detail answers a monitor 403: never asked.
    expect(calls.some((c) => c.path === "/api/patient-visit-detail")).toBe(false);
    expect(document.body).not.toHaveTextContent("Kovács");
  });

  it("shows the verification on the visit form, and says when a change reopens it", async () => {
    stubApi(visitServer(verified));
    const u = userEvent.setup();
    renderRoutes(routes, ["/patient-visits/pv-55/edit"]);
    expect(await screen.findByRole("heading", { name: "Modify patient visit" })).toBeInTheDocument();
    const verification = (await screen.findByText("Source verification:")).closest("dl") as HTMLElement;
    expect(verification).toHaveTextContent("Verified by Mona Monitor on 15 Mar 2026");
    expect(within(verification).getByRole("link", { name: "2 open queries" })).toHaveAttribute(
      "href",
      "/queries?patientVisitId=55",
    );
    const reopens =
      "Saving this change reopens the source verification: the monitor verifies the visit again.";
    expect(screen.queryByText(reopens)).not.toBeInTheDocument();
    await u.type(screen.getByLabelText("Notes"), ", late");
    expect(screen.getByText(reopens)).toHaveAttribute("role", "status");
    // Recording another visit instead: nothing of this one's verification.
    await choose(u, "Visit", /^Week 2/);
    expect(screen.queryByText("Source verification:")).not.toBeInTheDocument();
    expect(screen.queryByText(reopens)).not.toBeInTheDocument();
  });

  it("lists each visit's source verification in a short SDV column", async () => {
    const row = (over: object) => ({
      patientVisitId: 55,
      patientVisitUuid: "pv-55",
      screenNumber: "S-001",
      barcode: "BUD-000001",
      patientName: "Kovács Anna",
      studyName: "TD-2025-001_NORMAL",
      visitName: "Screening",
      visitDate: "2025-03-10",
      visitStatus: "COMPLETED",
      sdvStatus: "VERIFIED",
      ...over,
    });
    const rows = [
      row({}),
      row({ patientVisitId: 56, patientVisitUuid: "pv-56", visitName: "Week 2", sdvStatus: "PENDING" }),
      row({ patientVisitId: 57, patientVisitUuid: "pv-57", visitName: "Week 4", sdvStatus: "REOPENED" }),
      row({ patientVisitId: 58, patientVisitUuid: "pv-58", visitName: "Week 6", sdvStatus: "NOT_REQUIRED" }),
    ];
    stubApi((call) => (call.path === "/api/patient-visits" ? { data: page(rows) } : server(call)));
    renderRoutes(routes, ["/patient-visits"]);
    const table = await screen.findByRole("table", { name: "Patient visits" });
    await within(table).findByText("Week 6");
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((h) => h.textContent);
    expect(headers).toEqual([
      "Id",
      "Screen Nr",
      "Barcode",
      "Patient",
      "Study",
      "Visit",
      "Visit date",
      "Status",
      "SDV",
      "Actions",
    ]);
    const sdv = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((r) => r.children[8].textContent);
    expect(sdv).toEqual(["Verified", "Pending", "Reopened", "—Not required"]);
  });
});
