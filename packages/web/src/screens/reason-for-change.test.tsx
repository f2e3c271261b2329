import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { type FormDescription, FormScreen } from "./FormScreen";
import { type ListDescription, ListScreen } from "./ListScreen";
import { type Call, renderRoutes, saveWhenReady, stubApi } from "./test-utils";

type Visit = { notes: string };
const uuid = "pv-8f14e45f-ceea-467f-a8f0-1b2a3c4d5e6f";
const recorded = { id: 7, uuid, version: 3, visitStatus: "COMPLETED", notes: "BP 120/80" };

/** A patient visit's form: the generic form of recorded clinical data (issue 46, point 1). */
const visitForm: FormDescription<Visit> = {
  resource: "patient-visits",
  empty: () => ({ notes: "" }),
  validate: () => ({}),
  fields: [{ name: "notes", label: "Notes" }],
};
const visitList: ListDescription = {
  resource: "patient-visits",
  columns: [{ key: "visitName", title: "Visit" }],
  describe: (row) => String(row.visitName),
  options: { remove: true },
};
const routes = [
  { path: "/patient-visits", element: <ListScreen description={visitList} /> },
  { path: "/patient-visits/create", element: <FormScreen description={visitForm} /> },
  { path: "/patient-visits/:itemId/edit", element: <FormScreen description={visitForm} /> },
];

/** The server: the visit as stored (`stored`), saves answered with what was sent. */
function stubServer(stored: Record<string, unknown> = recorded) {
  return stubApi((call) => {
    if (call.method === "GET" && call.path === `/api/patient-visits/${uuid}`) return { data: stored };
    if (call.method === "GET" && call.path === "/api/patient-visits")
      return {
        data: {
          items: [{ ...stored, visitName: "Week 4" }],
          pagination: { page: 1, pageSize: 10, total: 1 },
        },
      };
    if (call.method === "PUT") return { data: { ...stored, ...(call.body as object), version: 4 } };
    if (call.method === "POST") return { status: 201, data: { ...(call.body as object), id: 8, version: 1 } };
    if (call.method === "DELETE") return { data: { deleted: true } };
  });
}
const sent = (calls: Call[], method: string) => calls.filter((c) => c.method === method);
const reasonSent = (call: Call | undefined) => decodeURIComponent(call?.headers["x-change-reason"] ?? "");

async function editNotes(user: ReturnType<typeof userEvent.setup>, text: string) {
  const notes = await screen.findByDisplayValue("BP 120/80");
  await user.clear(notes);
  await user.type(notes, text);
}

describe("the reason for a change of recorded clinical data (issue 46, point 1)", () => {
  it("asks why before an edit is saved, refuses no answer, and sends the chosen reason", async () => {
    const calls = stubServer();
    const user = userEvent.setup();
    renderRoutes(routes, [`/patient-visits/${uuid}/edit`]);
    await editNotes(user, "BP 125/80");
    await saveWhenReady(user);
    const dialog = await screen.findByRole("dialog", { name: "Reason for the change" });
    expect(sent(calls, "PUT")).toHaveLength(0);
    // The common reasons, and Other with its own text field.
    for (const name of ["Transcription error", "Late entry", "Source corrected", "Other"])
      expect(within(dialog).getByRole("radio", { name })).toBeInTheDocument();
    expect(within(dialog).getByRole("textbox", { name: "Other reason" })).toHaveAttribute("maxlength", "500");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("A reason for the change is required");
    expect(sent(calls, "PUT")).toHaveLength(0);
    await user.click(within(dialog).getByRole("radio", { name: "Late entry" }));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Patient visit updated")).toBeInTheDocument();
    const [put] = sent(calls, "PUT");
    expect(put.body).toMatchObject({ notes: "BP 125/80", version: 3 });
    expect(put.headers["x-change-reason"]).toBe("Late%20entry");
  });

  it("takes a reason typed under Other, by keyboard, percent-encoded as the header must be", async () => {
    const calls = stubServer();
    const user = userEvent.setup();
    renderRoutes(routes, [`/patient-visits/${uuid}/edit`]);
    await editNotes(user, "BP 130/85");
    await saveWhenReady(user);
    const dialog = await screen.findByRole("dialog", { name: "Reason for the change" });
    // Focus starts on the first choice; Other's text field is a Tab away from the choices.
    expect(within(dialog).getByRole("radio", { name: "Transcription error" })).toHaveFocus();
    await user.click(within(dialog).getByRole("radio", { name: "Other" }));
    expect(within(dialog).getByRole("textbox", { name: "Other reason" })).toHaveFocus();
    // Other without its text is no reason.
    await user.keyboard("{Enter}");
    expect(within(dialog).getByRole("alert")).toHaveTextContent("A reason for the change is required");
    await user.keyboard("Hibás átírás – ő{Enter}");
    await waitFor(() => expect(sent(calls, "PUT")).toHaveLength(1));
    const header = sent(calls, "PUT")[0].headers["x-change-reason"];
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(reasonSent(sent(calls, "PUT")[0])).toBe("Hibás átírás – ő");
  });

  it("Cancel sends nothing and keeps the form as it is", async () => {
    const calls = stubServer();
    const user = userEvent.setup();
    renderRoutes(routes, [`/patient-visits/${uuid}/edit`]);
    await editNotes(user, "BP 140/90");
    await saveWhenReady(user);
    const dialog = await screen.findByRole("dialog", { name: "Reason for the change" });
    await user.click(within(dialog).getByRole("radio", { name: "Source corrected" }));
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(sent(calls, "PUT")).toHaveLength(0);
    expect(screen.getByLabelText("Notes")).toHaveValue("BP 140/90");
    expect(screen.getByRole("button", { name: "Reset" })).toBeInTheDocument();
    // Saved again, it asks afresh.
    await user.click(screen.getByRole("button", { name: "Save" }));
    const again = await screen.findByRole("dialog", { name: "Reason for the change" });
    expect(within(again).getByRole("radio", { name: "Source corrected" })).not.toBeChecked();
  });

  it("does not ask when a record is created, nor when a booked visit is recorded (decision 229)", async () => {
    const calls = stubServer({ ...recorded, visitStatus: "BOOKED" });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, [`/patient-visits/${uuid}/edit`]);
    await editNotes(user, "Came on time");
    await saveWhenReady(user);
    expect(await screen.findByText("Patient visit updated")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(sent(calls, "PUT")[0].headers).not.toHaveProperty("x-change-reason");

    await router.navigate("/patient-visits/create");
    await user.type(await screen.findByLabelText("Notes"), "First visit");
    await saveWhenReady(user);
    expect(await screen.findByText("Patient visit created")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(sent(calls, "POST")[0].headers).not.toHaveProperty("x-change-reason");
  });

  it("asks why once a removal is confirmed, and sends the reason with the DELETE", async () => {
    const calls = stubServer();
    const user = userEvent.setup();
    renderRoutes(routes, ["/patient-visits"]);
    await user.click(await screen.findByRole("button", { name: "Remove Week 4" }));
    await user.click(
      within(screen.getByRole("dialog", { name: "Remove item" })).getByRole("button", { name: "Yes" }),
    );
    let dialog = await screen.findByRole("dialog", { name: "Reason for the change" });
    // Cancel removes nothing.
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(sent(calls, "DELETE")).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Remove Week 4" }));
    await user.click(
      within(screen.getByRole("dialog", { name: "Remove item" })).getByRole("button", { name: "Yes" }),
    );
    dialog = await screen.findByRole("dialog", { name: "Reason for the change" });
    await user.click(within(dialog).getByRole("radio", { name: "Transcription error" }));
    await user.click(within(dialog).getByRole("button", { name: "Remove" }));
    expect(await screen.findByText("Item deleted")).toBeInTheDocument();
    const [removed] = sent(calls, "DELETE");
    expect(removed.path).toBe(`/api/patient-visits/${uuid}`);
    expect(reasonSent(removed)).toBe("Transcription error");
  });
});
