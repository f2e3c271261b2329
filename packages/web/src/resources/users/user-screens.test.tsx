import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { User } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { type Call, renderRoutes, stubApi } from "../../screens/test-utils";
import { ChangePasswordPage } from "./change-password";
import { Detail, Form, passwordState } from "./user-screens";

const user: User = {
  id: 5,
  uuid: "usr-5",
  version: 3,
  email: "anna@example.com",
  lastPasswordChangeDate: "2025-03-04T10:00:00Z",
  hasPassword: true,
  isActive: true,
  isAdmin: false,
  profile: { firstName: "Anna", lastName: "Kovacs" },
  siteIds: [2],
};
const sites = [
  { id: 1, uuid: "site-1", code: "BUD", shortName: "Budapest CRC" },
  { id: 2, uuid: "site-2", code: "VIE", shortName: "Vienna TC" },
];

function server(call: Call) {
  if (call.path === "/api/users/usr-5") return { data: user };
  if (call.path === "/api/sites")
    return { data: { items: sites, pagination: { page: 1, pageSize: 250, total: 2 } } };
  if (call.path === "/api/audit") return { data: { items: [] } };
}

const routes = [
  { path: "/users/create", element: <Form /> },
  { path: "/users/:itemId/edit", element: <Form /> },
  { path: "/users/:itemId", element: <Detail /> },
  { path: "/change-password", element: <ChangePasswordPage /> },
  { path: "/", element: <p>home page</p> },
];

const rowValue = (label: string) =>
  screen.getByText(label, { selector: "dt" }).nextElementSibling?.textContent;

describe("user screens", () => {
  it("shows whether a password is set and when it changed, never a value", async () => {
    expect(passwordState(user)).toBe("Set, last changed 2025-03-04");
    expect(passwordState({ hasPassword: true, lastPasswordChangeDate: null })).toBe("Set");
    expect(passwordState({ hasPassword: false, lastPasswordChangeDate: null })).toBe("Not set");
    stubApi(server);
    renderRoutes(routes, ["/users/usr-5"]);
    await waitFor(() => expect(rowValue("Password")).toBe("Set, last changed 2025-03-04"));
    expect(rowValue("Name")).toBe("Anna Kovacs");
    await waitFor(() => expect(rowValue("Sites")).toBe("VIE - Vienna TC"));
    expect(rowValue("Is active")).toBe("Yes");
    expect(rowValue("Administrator")).toBe("No");
  });

  it("asks a new user for a password in the spec's order and sends the chosen sites", async () => {
    const calls = stubApi((call) =>
      call.method === "POST" ? { status: 201, data: { ...user, id: 9, uuid: "usr-9" } } : server(call),
    );
    const u = userEvent.setup();
    renderRoutes(routes, ["/users/create"]);
    const save = await screen.findByRole("button", { name: "Save" });
    await waitFor(() => expect(save).toBeEnabled());
    await u.click(save);
    expect(screen.getByText("First name is required")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    expect(screen.getByText("Password confirmation is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toHaveAttribute("maxLength", "50");

    await u.type(screen.getByLabelText("Email"), "new@example.com");
    await u.type(screen.getByLabelText("First name"), "New");
    await u.type(screen.getByLabelText("Last name"), "Person");
    await u.click(screen.getByRole("combobox", { name: "Sites" }));
    await u.click(await screen.findByRole("option", { name: "BUD - Budapest CRC" }));
    await u.keyboard("{Escape}");
    await u.type(screen.getByLabelText("Password"), "short");
    await u.type(screen.getByLabelText("Password confirmation"), "shorty");
    await u.click(save);
    expect(screen.getByText("Passwords do not match")).toBeInTheDocument();
    await u.clear(screen.getByLabelText("Password confirmation"));
    await u.type(screen.getByLabelText("Password confirmation"), "short");
    await u.click(save);
    expect(
      screen.getByText("Password is too short. It should be at least 8 characters."),
    ).toBeInTheDocument();
    await u.clear(screen.getByLabelText("Password"));
    await u.clear(screen.getByLabelText("Password confirmation"));
    await u.type(screen.getByLabelText("Password"), "long-enough");
    await u.type(screen.getByLabelText("Password confirmation"), "long-enough");
    await u.click(save);
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      email: "new@example.com",
      siteIds: [1],
      password: "long-enough",
      password2: "long-enough",
      profile: { firstName: "New", lastName: "Person" },
    });
  });

  it("changes the password: rules first, the server's wrong-current-password message on its field", async () => {
    let attempts = 0;
    const calls = stubApi((call) => {
      if (call.path !== "/api/me/password") return undefined;
      attempts += 1;
      return attempts === 1
        ? {
            status: 400,
            errorMessage: "Invalid field data",
            fieldErrors: [{ field: "currentPassword", message: "Current password is not correct" }],
          }
        : { data: { changed: true } };
    });
    const u = userEvent.setup();
    renderRoutes(routes, ["/change-password"]);
    await u.click(await screen.findByRole("button", { name: "Save" }));
    expect(screen.getByText("Current password is required")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "/api/me/password")).toHaveLength(0);
    await u.type(screen.getByLabelText("Current password"), "wrong-one");
    await u.type(screen.getByLabelText("New password"), "new-password");
    await u.type(screen.getByLabelText("New password confirmation"), "new-password");
    await u.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Current password is not correct")).toBeInTheDocument();
    await u.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("home page")).toBeInTheDocument();
    expect(screen.getByText(/Password changed/)).toBeInTheDocument();
  });
});
