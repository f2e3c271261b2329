import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { demoUser, fakeServer, renderApp, signedInHandlers } from "./testing/fake-server";

const anonymous = { "POST /api/token": () => ({ status: 401, error: "Not signed in" }) };

describe("/login (spec §2.5 Login)", () => {
  it("shows the server's error message in a red box above the form on failure", async () => {
    const user = userEvent.setup();
    fakeServer(
      signedInHandlers({
        ...anonymous,
        "POST /api/auth": () => ({ status: 401, error: "Invalid e-mail or password" }),
      }),
    );
    renderApp("/login");
    expect(await screen.findByRole("heading", { name: "Welcome back!" })).toBeInTheDocument();
    await user.type(screen.getByLabelText("E-mail"), "admin@example.com");
    await user.type(screen.getByLabelText("Password"), "wrong");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid e-mail or password");
    expect(screen.getByRole("button", { name: "Sign In" })).toBeEnabled();
  });

  it("signs in with username and password, keeps the tokens and goes to /", async () => {
    const user = userEvent.setup();
    const server = fakeServer(
      signedInHandlers({
        ...anonymous,
        "POST /api/auth": () => ({
          data: { user: demoUser, accessToken: "access-9", accessTokenExpire: 900, csrfToken: "csrf-9" },
        }),
      }),
    );
    const { router } = renderApp("/login");
    await user.type(await screen.findByLabelText("E-mail"), "admin@example.com");
    await user.type(screen.getByLabelText("Password"), "admin1234");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByRole("link", { name: "New visit" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
    expect(server.callsTo("POST", "/api/auth")[0].body).toEqual({
      username: "admin@example.com",
      password: "admin1234",
    });
    expect(server.callsTo("GET", "/api/me/menu")[0].headers.Authorization).toBe("Bearer access-9");
  });

  it("shows and hides the password", async () => {
    const user = userEvent.setup();
    fakeServer(signedInHandlers(anonymous));
    renderApp("/login");
    const password = await screen.findByLabelText("Password");
    expect(password).toHaveAttribute("type", "password");
    await user.click(screen.getByRole("button", { name: "Show password" }));
    expect(password).toHaveAttribute("type", "text");
    await user.click(screen.getByRole("button", { name: "Hide password" }));
    expect(password).toHaveAttribute("type", "password");
  });

  it("sends a signed-in user on to /", async () => {
    fakeServer(signedInHandlers());
    const { router } = renderApp("/login");
    expect(await screen.findByRole("link", { name: "New visit" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
  });

  it("redirects an anonymous user from a signed-in route to /login", async () => {
    fakeServer(signedInHandlers(anonymous));
    const { router } = renderApp("/therapy-categories");
    expect(await screen.findByText("Welcome back!")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
  });
});
