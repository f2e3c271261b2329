import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AuditEvent, SignedInUser } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { Detail as TherapyAreaDetail } from "../resources/therapy-areas/therapy-area-screens";
import { Detail as TherapyCategoryDetail } from "../resources/therapy-categories/therapy-category-screens";
import { type Call, renderRoutes, signedInAs, stubApi } from "./test-utils";

const user: SignedInUser = {
  id: 1,
  uuid: "usr-1",
  email: "admin@example.com",
  profile: { firstName: "Ada", lastName: "Admin" },
  isAdmin: true,
  siteIds: [],
  kind: "user",
};
const category = { id: 3, uuid: "thc-3", version: 2, name: "Oncology", code: "ONC" };
const area = {
  id: 8,
  uuid: "tha-8",
  version: 1,
  name: "Lung cancer",
  code: "LUN",
  therapyCategoryId: 3,
  therapyCategoryName: "Oncology",
};
const events: AuditEvent[] = [
  {
    id: 2,
    at: "2025-03-01T10:20:30Z",
    userId: 1,
    userName: "Ada Admin",
    requestId: "r2",
    resource: "therapy-categories",
    uuid: "thc-3",
    action: "update",
    changes: [{ field: "name", old: "Onkology", new: "Oncology" }],
    reason: null,
  },
];

function server(call: Call) {
  if (call.path === "/api/therapy-categories/thc-3") return { data: category };
  if (call.path === "/api/therapy-areas/tha-8") return { data: area };
  if (call.path === "/api/audit") return { data: { items: events } };
}

const routes = [
  { path: "/therapy-categories", element: <p>list page</p> },
  { path: "/therapy-categories/:itemId", element: <TherapyCategoryDetail /> },
  { path: "/therapy-areas/:itemId", element: <TherapyAreaDetail /> },
];

const rowValue = (label: string) =>
  screen.getByText(label, { selector: "dt" }).nextElementSibling?.textContent;

describe("DetailScreen", () => {
  it("shows Id, Uuid and the rows read with format=view, the history, and an Edit link", async () => {
    const calls = stubApi(signedInAs(user, server));
    renderRoutes(routes, ["/therapy-categories/thc-3"], { session: true });
    expect(await screen.findByText("Oncology", { selector: "dd" })).toBeInTheDocument();
    expect(rowValue("Id")).toBe("3");
    expect(rowValue("Uuid")).toBe("thc-3");
    expect(rowValue("Code")).toBe("ONC");
    expect(calls.find((c) => c.path === "/api/therapy-categories/thc-3")?.search.get("format")).toBe("view");
    expect(await screen.findByRole("heading", { name: "History" })).toBeInTheDocument();
    expect(screen.getByText(/Onkology → Oncology/)).toBeInTheDocument();
    expect(screen.getByText("Ada Admin")).toBeInTheDocument();
    const audit = calls.find((c) => c.path === "/api/audit");
    expect(audit?.search.get("resource")).toBe("therapy-categories");
    expect(audit?.search.get("uuid")).toBe("thc-3");
    expect(screen.getByRole("link", { name: "Edit" })).toHaveAttribute(
      "href",
      "/therapy-categories/thc-3/edit",
    );
  });

  it("shows a therapy area's category with its id; signed out, no history and no Edit", async () => {
    const calls = stubApi(
      signedInAs(null, (call) =>
        call.path === "/api/audit" ? { status: 401, errorMessage: "Sign in" } : server(call),
      ),
    );
    renderRoutes(routes, ["/therapy-areas/tha-8"], { session: true });
    expect(await screen.findByText("Oncology (3)")).toBeInTheDocument();
    expect(rowValue("ID")).toBe("8");
    expect(rowValue("Name")).toBe("Lung cancer");
    await waitFor(() => expect(screen.queryByText("Loading...")).not.toBeInTheDocument());
    expect(screen.queryByRole("heading", { name: "History" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Edit" })).not.toBeInTheDocument();
    // The history is not even asked for: a signed-out reader would only get (and log) a 401.
    expect(calls.filter((c) => c.path === "/api/audit")).toHaveLength(0);
  });

  it("Back goes one step back in history", async () => {
    stubApi(signedInAs(user, server));
    const u = userEvent.setup();
    const { router } = renderRoutes(routes, ["/therapy-categories", "/therapy-categories/thc-3"], {
      session: true,
    });
    await screen.findByText("Oncology", { selector: "dd" });
    await u.click(screen.getByRole("button", { name: "Back" }));
    expect(router.state.location.pathname).toBe("/therapy-categories");
  });

  it("toasts Can not display data when the record cannot be read", async () => {
    stubApi(signedInAs(user, () => ({ status: 500, errorMessage: "Internal server error" })));
    renderRoutes(routes, ["/therapy-categories/thc-500"], { session: true });
    expect(await screen.findByText("Can not display data: Internal server error")).toBeInTheDocument();
  });

  it("shows a record the server does not find as not found (issue 46, point 12)", async () => {
    stubApi(signedInAs(user, () => ({ status: 404, errorMessage: "Therapy category not found" })));
    renderRoutes(routes, ["/therapy-categories/thc-404"], { session: true });
    expect(await screen.findByRole("heading", { name: "Therapy category not found" })).toBeInTheDocument();
    expect(screen.queryByText(/Can not display data/)).not.toBeInTheDocument();
  });
});
