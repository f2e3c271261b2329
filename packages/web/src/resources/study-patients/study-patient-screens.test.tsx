import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SiteOption, StudyPatient } from "@trialdesk/domain";
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
import { Form, List } from "./study-patient-screens";

const site: SiteOption = {
  id: 4,
  uuid: "site-00000000-0000-4000-8000-000000000004",
  code: "BUD",
  shortName: "Budapest CRC",
  city: "Budapest",
} as SiteOption;

const assignment: StudyPatient = {
  id: 12,
  uuid: "sp-00000000-0000-4000-8000-000000000012",
  version: 3,
  studyId: 2,
  patientId: 7,
  screenNr: "S-012",
  randomNr: "R-1012",
  active: true,
  startDate: "2025-05-05",
  startedBy: 1,
  closeDate: null,
  closeReason: null,
  closedBy: null,
  notes: null,
  barcode: "BUD-000007",
  firstName: "Ilona",
  lastName: "Kiss",
  projectInternalCode: "ACRMDPHFL001",
  studyWorkingName: "TD-2025-001_NORMAL",
  studyUuid: "std-00000000-0000-4000-8000-000000000001",
  startedByName: "Ada Admin",
  closedByName: null,
  hasVisits: false,
};

const list = (items: unknown[]) => ({
  data: { items, pagination: { page: 1, pageSize: 100, total: items.length } },
});

function api(extra: ApiHandler = () => undefined) {
  return stubApi((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.path === "/api/me/sites") return { data: { items: [site] } };
    if (call.path === "/api/patients")
      return list([{ id: 7, barcode: "BUD-000007", firstName: "Ilona", lastName: "Kiss" }]);
    if (call.path === "/api/studies")
      return list([{ id: 2, workingName: "TD-2025-001_NORMAL", projectInternalCode: "ACRMDPHFL001" }]);
    if (call.path === `/api/study-patients/${assignment.uuid}` && call.method === "GET")
      return { data: assignment };
    if (call.path === "/api/study-patients" && call.method === "GET") return list([assignment]);
    return undefined;
  });
}

/** On the create form: picks the patient by its option's name and the study, then saves. */
async function assignAndSave(user: ReturnType<typeof userEvent.setup>, patientOption: string) {
  const patient = await screen.findByLabelText("Patient");
  await waitFor(() => expect(patient).toHaveTextContent("Type to select a patient ..."));
  await user.click(patient);
  await user.click(await screen.findByRole("option", { name: patientOption }));
  await user.click(screen.getByLabelText("Study"));
  await user.click(await screen.findByRole("option", { name: "ACRMDPHFL001 — TD-2025-001_NORMAL" }));
  return saveWhenReady(user);
}

const routes = [
  { path: "/study-patients", element: <List /> },
  { path: "/study-patients/create", element: <Form /> },
  { path: "/study-patients/:itemId/edit", element: <Form /> },
].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));

beforeEach(() => localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid));

describe("study-patient screens", () => {
  it("the list's Study column names the study by its working name, not the project's code", async () => {
    api();
    renderRoutes(routes, ["/study-patients"]);
    const row = await screen.findByRole("row", { name: /BUD-000007/ });
    expect(within(row).getByText("TD-2025-001_NORMAL")).toHaveAttribute("title", "ACRMDPHFL001");
    expect(within(row).queryByText("ACRMDPHFL001")).not.toBeInTheDocument();
  });

  it("closes an assignment: the Close toggle asks for the close reason, required before anything is sent", async () => {
    const user = userEvent.setup();
    const calls = api((call) =>
      call.method === "PUT"
        ? { data: { ...assignment, ...(call.body as object), version: 4, closedByName: "Ada Admin" } }
        : undefined,
    );
    renderRoutes(routes, [`/study-patients/${assignment.uuid}/edit`]);
    expect(await screen.findByRole("heading", { name: "Edit Study patient data" })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByLabelText("Patient")).toHaveTextContent("Kiss Ilona (BUD-000007)"),
    );
    expect(screen.getByLabelText("Study")).toHaveTextContent("ACRMDPHFL001 — TD-2025-001_NORMAL");
    expect(screen.queryByLabelText("Close reason")).not.toBeInTheDocument();
    await user.click(screen.getByRole("switch", { name: "Close" }));
    expect(screen.getByRole("switch", { name: "Close" })).toBeChecked();
    const reason = screen.getByLabelText("Close reason");
    const save = await saveWhenReady(user);
    expect(await screen.findByText("Close reason is required")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PUT")).toEqual([]);
    await user.click(reason);
    // Words, not codes (issue 15).
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual([
      "Cancelled",
      "Died",
      "End of study",
    ]);
    await user.click(screen.getByRole("option", { name: "End of study" }));
    await user.click(save);
    // An edit of an assignment says why (issue 46, point 1).
    await giveReason(user);
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    const put = calls.find((c) => c.method === "PUT") as Call;
    expect(put.path).toBe(`/api/study-patients/${assignment.uuid}`);
    expect(put.body).toMatchObject({ uuid: assignment.uuid, version: 3, active: false, closeReason: "EOS" });
    // Read-only view fields stay behind.
    expect(put.body).not.toHaveProperty("barcode");
  });

  it("shows patient and study as fixed, and why, for an assignment with recorded visits", async () => {
    api((call) =>
      call.path === `/api/study-patients/${assignment.uuid}` && call.method === "GET"
        ? { data: { ...assignment, hasVisits: true } }
        : undefined,
    );
    renderRoutes(routes, [`/study-patients/${assignment.uuid}/edit`]);
    // Loaded (while it loads, every field waits disabled), the rest of the assignment editable.
    await waitFor(() => expect(screen.getByLabelText("Screen number")).toBeEnabled());
    const study = screen.getByLabelText("Study");
    expect(study).toBeDisabled();
    expect(screen.getByLabelText("Patient")).toBeDisabled();
    expect(study).toHaveAccessibleDescription(
      "The patient has visits recorded in this study: they keep this assignment to it",
    );
  });

  it("offers no Close toggle for a new assignment and shows the server's refusal in the error bar", async () => {
    const user = userEvent.setup();
    const calls = api((call) =>
      call.method === "POST"
        ? fieldRefusal("studyId", "The patient is already assigned to this study")
        : undefined,
    );
    renderRoutes(routes, ["/study-patients/create"]);
    expect(await screen.findByRole("heading", { name: "Assign patient to study" })).toBeInTheDocument();
    expect(screen.queryByRole("switch", { name: "Close" })).not.toBeInTheDocument();
    await assignAndSave(user, "Kiss Ilona (BUD-000007)");
    const bar = await screen.findByRole("alert");
    expect(bar).toHaveTextContent("The patient is already assigned to this study");
    const post = calls.find((c) => c.method === "POST") as Call;
    expect(post.body).toMatchObject({ patientId: 7, studyId: 2, active: true });
    const lookup = calls.find((c) => c.path === "/api/patients") as Call;
    expect(lookup.search.get("siteId")).toBe(String(site.id));
    expect(lookup.search.get("forSelect")).toBe("true");
  });

  it("marks an inactive patient in the selector and asks before assigning one", async () => {
    const user = userEvent.setup();
    const inactive = { id: 7, barcode: "BUD-000007", firstName: "Ilona", lastName: "Kiss", status: 0 };
    const calls = api((call) => {
      if (call.path === "/api/patients") return list([inactive]);
      if (call.path === "/api/patients/7")
        return { data: { ...inactive, patientDetail: { firstName: "Ilona", lastName: "Kiss" } } };
      if (call.method === "POST") return { status: 201, data: { ...assignment, id: 13 } };
      return undefined;
    });
    renderRoutes(routes, ["/study-patients/create"]);
    const save = await assignAndSave(user, "Kiss Ilona (BUD-000007) — Inactive");
    const question = await screen.findByRole("dialog", { name: "Inactive patient" });
    expect(question).toHaveTextContent("Kiss Ilona (BUD-000007) is inactive.");
    await user.click(within(question).getByRole("button", { name: "No" }));
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    await user.click(save);
    await user.click(await screen.findByRole("button", { name: "Yes, assign" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "POST")).toHaveLength(1));
  });

  it("lists the active site's assignments with the Active / Closed badge", async () => {
    const calls = api((call) =>
      call.path === "/api/study-patients" && call.method === "GET"
        ? list([assignment, { ...assignment, id: 13, uuid: "sp-2", active: false, barcode: "BUD-000008" }])
        : undefined,
    );
    renderRoutes(routes, ["/study-patients"]);
    await screen.findByText("BUD-000008");
    const body = screen.getAllByRole("row").slice(1);
    expect(within(body[0]).getByText("Kiss Ilona")).toBeInTheDocument();
    expect(within(body[0]).getByText("Active")).toBeInTheDocument();
    expect(within(body[1]).getByText("Closed")).toBeInTheDocument();
    const call = calls.find((c) => c.path === "/api/study-patients") as Call;
    expect(call.search.get("siteId")).toBe(String(site.id));
  });

  it("asks for a site first", async () => {
    localStorage.clear();
    api();
    renderRoutes(routes, ["/study-patients/create"]);
    expect(await screen.findByText("Please select a site first")).toBeInTheDocument();
  });
});
