import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { isUuidOf } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { sessionExpiredState } from "../app/countdown";
import { Form as TherapyAreaForm } from "../resources/therapy-areas/therapy-area-screens";
import { Form as TherapyCategoryForm } from "../resources/therapy-categories/therapy-category-screens";
import { type FormDescription, FormScreen } from "./FormScreen";
import {
  type ApiHandler,
  defaultUser,
  fieldRefusal,
  heldBack,
  renderRoutes,
  saveWhenReady,
  signedInAs,
  stubApi,
} from "./test-utils";

const uuid = "thc-8f14e45f-ceea-467f-a8f0-1b2a3c4d5e6f";
const stored = { id: 5, uuid, version: 1, name: "Oncology", code: "ONC" };

const routes = [
  { path: "/therapy-categories", element: <p>list page</p> },
  { path: "/therapy-categories/create", element: <TherapyCategoryForm /> },
  { path: "/therapy-categories/:itemId/edit", element: <TherapyCategoryForm /> },
  { path: "/therapy-areas/create", element: <TherapyAreaForm /> },
  { path: "/therapy-areas/:itemId/edit", element: <TherapyAreaForm /> },
];

function stubServer(onSave?: ApiHandler) {
  return stubApi((call) => {
    if (call.method === "GET" && call.path === `/api/therapy-categories/${uuid}`) return { data: stored };
    if (call.method === "GET" && call.path === "/api/therapy-categories")
      return {
        data: {
          items: [
            { id: 3, uuid: "thc-3", name: "Oncology", code: "ONC" },
            { id: 4, uuid: "thc-4", name: "Cardiology", code: "CAR" },
          ],
          pagination: { page: 1, pageSize: 1000, total: 2 },
        },
      };
    if (call.method === "POST" || call.method === "PUT") return onSave?.(call);
  });
}

/** Opens a create route whose save the server answers with the record as sent and the new id. */
function startCreating(path: string, newId: number) {
  const calls = stubServer((call) => ({
    status: 201,
    data: { ...(call.body as object), id: newId, version: 1 },
  }));
  const user = userEvent.setup();
  return { calls, user, ...renderRoutes(routes, [path]) };
}

const saveButton = () => screen.getByRole("button", { name: "Save" });

describe("FormScreen", () => {
  it("shows the client validation messages on the fields and sends nothing", async () => {
    const calls = stubServer();
    const user = userEvent.setup();
    renderRoutes(routes, ["/therapy-categories/create"]);
    expect(screen.getByRole("heading", { name: "Therapy category" })).toBeInTheDocument();
    await user.type(screen.getByLabelText("Name"), "On");
    await saveWhenReady(user);
    const name = screen.getByLabelText("Name");
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(name).toHaveAccessibleDescription("Name must be at least 3 characters long");
    expect(screen.getByLabelText("Code")).toHaveAccessibleDescription(
      "Code is required 2 or 3 characters, unique",
    );
    expect(name).toBeRequired();
    expect(calls.filter((c) => c.method !== "GET")).toHaveLength(0);
  });

  it("creates with a prefixed client uuid, toasts, and moves to the edit route of the saved record", async () => {
    const { calls, user, router } = startCreating("/therapy-categories/create", 9);
    await user.type(screen.getByLabelText("Name"), "Neurology");
    await user.type(screen.getByLabelText("Code"), "neur");
    // Forced upper case and cut to 3 as typed.
    expect(screen.getByLabelText("Code")).toHaveValue("NEU");
    expect(screen.getByRole("button", { name: "Reset" })).toBeInTheDocument();
    await saveWhenReady(user);
    expect(await screen.findByText("Therapy category created")).toBeInTheDocument();
    const post = calls.find((c) => c.method === "POST");
    expect(post?.path).toBe("/api/therapy-categories");
    const body = post?.body as { uuid: string; name: string; code: string };
    expect(isUuidOf("therapy-categories", body.uuid)).toBe(true);
    expect(body).toMatchObject({ name: "Neurology", code: "NEU" });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/therapy-categories/${body.uuid}/edit`));
    expect(screen.getByLabelText("Name")).toHaveValue("Neurology");
    expect(screen.queryByRole("button", { name: "Reset" })).not.toBeInTheDocument();
    // The saved record was handed over: no reload from the server.
    expect(calls.filter((c) => c.method === "GET")).toHaveLength(0);
  });

  it("loads, updates with the version, and toasts Therapy category updated", async () => {
    const calls = stubServer((call) => ({ data: { ...(call.body as object), version: 2 } }));
    const user = userEvent.setup();
    renderRoutes(routes, [`/therapy-categories/${uuid}/edit`]);
    expect(screen.getByText("Loading...")).toBeInTheDocument();
    expect(await screen.findByDisplayValue("Oncology")).toBeInTheDocument();
    expect(screen.queryByText("Loading...")).not.toBeInTheDocument();
    // Save waits a moment after loading ends.
    expect(saveButton()).toBeDisabled();
    await user.clear(screen.getByLabelText("Name"));
    await user.type(screen.getByLabelText("Name"), "Oncology II");
    await saveWhenReady(user);
    expect(await screen.findByText("Therapy category updated")).toBeInTheDocument();
    const put = calls.find((c) => c.method === "PUT");
    expect(put?.path).toBe(`/api/therapy-categories/${uuid}`);
    expect(put?.body).toEqual({ id: 5, uuid, version: 1, name: "Oncology II", code: "ONC" });
  });

  it("takes no typing while the record loads, which would be replaced by what arrives", async () => {
    const answer = heldBack();
    stubApi(async (call) => {
      if (call.method !== "GET" || call.path !== `/api/therapy-categories/${uuid}`) return undefined;
      await answer.released;
      return { data: stored };
    });
    const user = userEvent.setup();
    renderRoutes(routes, [`/therapy-categories/${uuid}/edit`]);
    const name = await screen.findByLabelText("Name");
    expect(name).toBeDisabled();
    await user.type(name, "typed too early");
    answer.release();
    await waitFor(() => expect(name).toBeEnabled());
    expect(name).toHaveValue("Oncology");
  });

  it("keeps what is typed while an update is on its way, as a change to the saved record", async () => {
    const answer = heldBack();
    // The server as it is: a read after the save gets the saved version.
    let current: Record<string, unknown> = stored;
    const calls = stubApi(async (call) => {
      if (call.path !== `/api/therapy-categories/${uuid}`) return undefined;
      if (call.method === "GET") return { data: current };
      await answer.released;
      current = { ...(call.body as object), version: (call.body as { version: number }).version + 1 };
      return { data: current };
    });
    const user = userEvent.setup();
    renderRoutes(routes, [`/therapy-categories/${uuid}/edit`]);
    const name = await screen.findByDisplayValue("Oncology");
    await user.type(name, " II");
    await saveWhenReady(user);
    await user.type(name, " bis");
    answer.release();
    expect(await screen.findByText("Therapy category updated")).toBeInTheDocument();
    expect(name).toHaveValue("Oncology II bis");
    // Still a change to save (Reset shows), and it is saved on the answer's version.
    expect(screen.getByRole("button", { name: "Reset" })).toBeInTheDocument();
    await saveWhenReady(user);
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(2));
    expect(calls.filter((c) => c.method === "PUT")[1].body).toMatchObject({
      version: 2,
      name: "Oncology II bis",
    });
  });

  it("keeps what is typed while a new record is created, on the edit route of the saved record", async () => {
    const answer = heldBack();
    const calls = stubServer(async (call) => {
      await answer.released;
      return call.method === "POST"
        ? { status: 201, data: { ...(call.body as object), id: 9, version: 1 } }
        : { data: { ...(call.body as object), version: 2 } };
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, ["/therapy-categories/create"]);
    await user.type(screen.getByLabelText("Name"), "Neurology");
    await user.type(screen.getByLabelText("Code"), "neu");
    await saveWhenReady(user);
    await user.type(screen.getByLabelText("Name"), " ward");
    answer.release();
    expect(await screen.findByText("Therapy category created")).toBeInTheDocument();
    const post = calls.find((c) => c.method === "POST");
    const created = (post?.body as { uuid?: string } | undefined)?.uuid;
    await waitFor(() => expect(router.state.location.pathname).toBe(`/therapy-categories/${created}/edit`));
    expect(screen.getByLabelText("Name")).toHaveValue("Neurology ward");
    expect(screen.getByRole("button", { name: "Reset" })).toBeInTheDocument();
    // Typing goes on in the same form after the move to the edit route.
    await user.type(screen.getByLabelText("Name"), "s");
    await saveWhenReady(user);
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({
      id: 9,
      uuid: created,
      version: 1,
      name: "Neurology wards",
    });
  });

  it("after a record is created, the create route again starts a new record with a new uuid", async () => {
    const { calls, user, router } = startCreating("/therapy-categories/create", 9);
    await user.type(screen.getByLabelText("Name"), "Neurology");
    await user.type(screen.getByLabelText("Code"), "neu");
    await saveWhenReady(user);
    expect(await screen.findByText("Therapy category created")).toBeInTheDocument();
    // The save moves on to the record's edit route by itself first (on a busy machine after the toast).
    await waitFor(() => expect(router.state.location.pathname).toMatch(/\/edit$/));
    await act(() => router.navigate("/therapy-categories/create"));
    await waitFor(() => expect(screen.getByLabelText("Name")).toHaveValue(""));
    expect(screen.queryByRole("button", { name: "Reset" })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText("Name"), "Cardiology");
    await user.type(screen.getByLabelText("Code"), "car");
    await saveWhenReady(user);
    await waitFor(() => expect(calls.filter((c) => c.method === "POST")).toHaveLength(2));
    const [first, second] = calls.filter((c) => c.method === "POST").map((c) => c.body as { uuid: string });
    expect(second).toMatchObject({ name: "Cardiology", code: "CAR" });
    expect(second).not.toHaveProperty("id");
    expect(isUuidOf("therapy-categories", second.uuid)).toBe(true);
    expect(second.uuid).not.toBe(first.uuid);
  });

  it("reads the record afresh on a reload even when the history still holds the saved copy", async () => {
    const calls = stubServer();
    renderRoutes(routes, [
      { pathname: `/therapy-categories/${uuid}/edit`, state: { saved: { ...stored, name: "Stale" } } },
    ]);
    expect(await screen.findByDisplayValue("Oncology")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "GET")).toHaveLength(1);
  });

  it("places a server field error on its field and toasts Invalid field data", async () => {
    stubServer(() => fieldRefusal("code", "Code must be unique"));
    const user = userEvent.setup();
    renderRoutes(routes, ["/therapy-categories/create"]);
    await user.type(screen.getByLabelText("Name"), "Oncology");
    await user.type(screen.getByLabelText("Code"), "ONC");
    await saveWhenReady(user);
    expect(await screen.findByText("Invalid field data")).toBeInTheDocument();
    expect(screen.getByLabelText("Code")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Code")).toHaveAccessibleDescription(
      "Code must be unique 2 or 3 characters, unique",
    );
  });

  it("on 409 says someone else changed the record and reloads only when asked", async () => {
    let serverName = "Oncology";
    const calls = stubApi((call) => {
      if (call.method === "GET")
        return { data: { ...stored, name: serverName, version: serverName === "Oncology" ? 1 : 2 } };
      if (call.method === "PUT")
        return { status: 409, errorMessage: "The record was changed by someone else" };
    });
    const user = userEvent.setup();
    renderRoutes(routes, [`/therapy-categories/${uuid}/edit`]);
    const name = await screen.findByDisplayValue("Oncology");
    serverName = "Oncology (changed)";
    await user.type(name, " mine");
    await saveWhenReady(user);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Someone else changed this record since you opened it.");
    // The user's edit is still there until they choose to reload.
    expect(screen.getByLabelText("Name")).toHaveValue("Oncology mine");
    await user.click(within(alert).getByRole("button", { name: "Reload" }));
    await waitFor(() => expect(screen.getByLabelText("Name")).toHaveValue("Oncology (changed)"));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === "GET")).toHaveLength(2);
  });

  it("other failures toast Error saving with the server message", async () => {
    stubServer(() => ({ status: 500, errorMessage: "Internal server error" }));
    const user = userEvent.setup();
    renderRoutes(routes, ["/therapy-categories/create"]);
    await user.type(screen.getByLabelText("Name"), "Oncology");
    await user.type(screen.getByLabelText("Code"), "ONC");
    await saveWhenReady(user);
    expect(
      await screen.findByText("Error saving Therapy category — Internal server error"),
    ).toBeInTheDocument();
  });

  it("asks before leaving with unsaved changes: Stay on Page stays, Yes, Leave leaves", async () => {
    stubServer();
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, ["/therapy-categories", `/therapy-categories/${uuid}/edit`]);
    await user.type(await screen.findByDisplayValue("Oncology"), "!");
    await user.click(screen.getByRole("button", { name: "Back" }));
    let dialog = screen.getByRole("dialog", { name: "Unsaved Changes" });
    expect(dialog).toHaveTextContent(
      "You have unsaved changes. Are you sure you want to leave without saving?",
    );
    await user.click(within(dialog).getByRole("button", { name: "Stay on Page" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/therapy-categories/${uuid}/edit`);
    expect(screen.getByLabelText("Name")).toHaveValue("Oncology!");
    // Any in-app navigation asks too.
    await router.navigate("/therapy-categories");
    dialog = await screen.findByRole("dialog", { name: "Unsaved Changes" });
    await user.click(within(dialog).getByRole("button", { name: "Yes, Leave" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/therapy-categories"));
  });

  it("lets the session expiry through to /logout even with unsaved changes", async () => {
    stubServer();
    const user = userEvent.setup();
    const { router } = renderRoutes(
      [...routes, { path: "/logout", element: <p>logged out</p> }],
      [`/therapy-categories/${uuid}/edit`],
    );
    await user.type(await screen.findByDisplayValue("Oncology"), "!");
    await router.navigate("/logout", { state: sessionExpiredState });
    await waitFor(() => expect(router.state.location.pathname).toBe("/logout"));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("Back without changes goes back at once; Reset restores the original", async () => {
    stubServer();
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, ["/therapy-categories", `/therapy-categories/${uuid}/edit`]);
    const name = await screen.findByDisplayValue("Oncology");
    await user.type(name, "!");
    await user.click(screen.getByRole("button", { name: "Reset" }));
    expect(screen.getByLabelText("Name")).toHaveValue("Oncology");
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/therapy-categories"));
  });

  it("for someone who may not save, every field is read-only and there is no Reset", async () => {
    const staff = { ...defaultUser, isAdmin: false };
    stubApi(
      signedInAs(staff, (call) =>
        call.method === "GET" && call.path === `/api/therapy-categories/${uuid}`
          ? { data: stored }
          : undefined,
      ),
    );
    const user = userEvent.setup();
    renderRoutes(routes, [`/therapy-categories/${uuid}/edit`]);
    const name = await screen.findByDisplayValue("Oncology");
    expect(await screen.findByText("Only administrators can change these records.")).toBeInTheDocument();
    await user.type(name, " changed");
    await user.type(screen.getByLabelText("Code"), "X");
    expect(name).toHaveValue("Oncology");
    expect(screen.getByLabelText("Code")).toHaveValue("ONC");
    expect(name).toBeDisabled();
    expect(screen.queryByRole("button", { name: "Reset" })).not.toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it("toasts Error loading data when the record cannot be read", async () => {
    stubApi(() => ({ status: 500, errorMessage: "Internal server error" }));
    renderRoutes(routes, ["/therapy-categories/thc-missing/edit"]);
    expect(await screen.findByText("Error loading data: Internal server error")).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it("shows a record the server does not find as not found, not as an empty form (issue 46, point 12)", async () => {
    stubApi(() => ({ status: 404, errorMessage: "Therapy category not found" }));
    renderRoutes(routes, ["/therapy-categories/thc-missing/edit"]);
    expect(await screen.findByRole("heading", { name: "Therapy category not found" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Name")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Save" })).not.toBeInTheDocument();
  });

  it("closes the toast about a save's field errors once they are corrected (issue 46, point 12)", async () => {
    stubServer(() => fieldRefusal("code", "Code must be unique"));
    const user = userEvent.setup();
    renderRoutes(routes, ["/therapy-categories/create"]);
    await user.type(screen.getByLabelText("Name"), "Oncology");
    await user.type(screen.getByLabelText("Code"), "ONC");
    await saveWhenReady(user);
    expect(await screen.findByText("Invalid field data")).toBeInTheDocument();
    // Another field's change leaves the error, and the toast.
    await user.type(screen.getByLabelText("Name"), " II");
    expect(screen.getByText("Invalid field data")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Code"));
    await user.type(screen.getByLabelText("Code"), "ONK");
    await waitFor(() => expect(screen.queryByText("Invalid field data")).not.toBeInTheDocument());
  });

  it("a therapy area takes its category from the select fed by the therapy categories", async () => {
    const { calls, user, router } = startCreating("/therapy-areas/create", 1);
    await user.type(screen.getByLabelText("Name"), "Lung cancer");
    await user.type(screen.getByLabelText("Code"), "lun");
    await saveWhenReady(user);
    expect(screen.getByLabelText("Therapy Category")).toHaveAccessibleDescription(
      "Therapy Category is required",
    );
    await user.click(screen.getByLabelText("Therapy Category"));
    await user.click(await screen.findByRole("option", { name: "Cardiology" }));
    await user.click(saveButton());
    expect(await screen.findByText("Therapy area created")).toBeInTheDocument();
    const lookup = calls.find((c) => c.path === "/api/therapy-categories");
    expect(lookup?.search.get("pagesize")).toBe("1000");
    const body = calls.find((c) => c.method === "POST")?.body as { uuid: string };
    expect(body).toMatchObject({ code: "LUN", therapyCategoryId: 4 });
    expect(isUuidOf("therapy-areas", body.uuid)).toBe(true);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/therapy-areas/${body.uuid}/edit`));
    expect(screen.getByLabelText("Therapy Category")).toHaveTextContent("Cardiology");
  });

  it("the error bar goes once every field it reported is corrected, even when a choice resets the whole form", async () => {
    type Choice = { patientId: number | null; studyId: number | null };
    // A form whose choices replace the whole form data, as the patient-visit editor's selectors do.
    const choices: FormDescription<Choice> = {
      resource: "study-patients",
      title: "Assignment",
      empty: () => ({ patientId: null, studyId: null }),
      validate: () => ({}),
      errorBar: true,
      fields: (form) => (
        <>
          <button type="button" onClick={() => form.setFormData({ patientId: 4, studyId: null })}>
            Choose patient
          </button>
          <button type="button" onClick={() => form.setFormData({ ...form.formData, studyId: 2 })}>
            Choose study
          </button>
          <p>{Object.values(form.errors).join(", ")}</p>
        </>
      ),
    };
    stubApi((call) =>
      call.method === "POST"
        ? {
            status: 400,
            errorMessage: "Invalid field data",
            fieldErrors: [
              { field: "patientId", message: "Patient is required" },
              { field: "studyId", message: "Study is required" },
            ],
          }
        : undefined,
    );
    const user = userEvent.setup();
    renderRoutes(
      [{ path: "/study-patients/create", element: <FormScreen description={choices} /> }],
      ["/study-patients/create"],
    );
    await saveWhenReady(user);
    const bar = await screen.findByRole("alert");
    expect(bar).toHaveTextContent("Invalid field data: Patient is required; Study is required");
    await user.click(screen.getByRole("button", { name: "Choose patient" }));
    expect(screen.queryByText("Patient is required, Study is required")).not.toBeInTheDocument();
    expect(screen.getByText("Study is required")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Choose study" }));
    expect(screen.queryByText("Study is required")).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
