import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { api } from "../api/client";
import { createSessionStore, useSession } from "./session";
import {
  demoMenu,
  demoSites,
  demoUser,
  fakeServer,
  type Reply,
  renderApp,
  signedInHandlers,
} from "./testing/fake-server";

function SessionProbe() {
  const { status, user, error } = useSession();
  return (
    <output aria-label="session">
      {status}|{user?.email ?? "anonymous"}|{error ?? ""}
    </output>
  );
}
const probe = () => screen.getByRole("status", { name: "session" });

describe("start-up (spec §4 Authentication)", () => {
  it("reads the configuration, refreshes the token, loads the user with the bearer token and shows the frame", async () => {
    const server = fakeServer(signedInHandlers());
    renderApp("/", { children: <SessionProbe /> });
    expect(await screen.findByRole("link", { name: "New visit" })).toBeInTheDocument();
    expect(probe()).toHaveTextContent("success|admin@example.com|");
    expect(server.calls.slice(0, 3).map((c) => `${c.method} ${c.path}`)).toEqual([
      "GET /config.json",
      "POST /api/token",
      "GET /api/me",
    ]);
    expect(server.callsTo("POST", "/api/token")[0].body).toEqual({ type: "refresh_token" });
    expect(server.callsTo("GET", "/api/me")[0].headers.Authorization).toBe("Bearer access-1");
    // Tokens live in memory only.
    expect(JSON.stringify({ ...localStorage })).not.toContain("access-1");
  });

  it("asks for the user's sites and menu beside the user, not after, and the frame reuses those answers (issue 14)", async () => {
    let answerMe = () => {};
    const me = new Promise<Reply>((resolve) => {
      answerMe = () => resolve({ data: demoUser });
    });
    const server = fakeServer(signedInHandlers({ "GET /api/me": () => me as Promise<never> }));
    renderApp("/");
    await waitFor(() => expect(server.callsTo("GET", "/api/me/sites")).toHaveLength(1));
    expect(server.callsTo("GET", "/api/me/menu")).toHaveLength(1);
    answerMe();
    await userEvent.click(await screen.findByTitle("Active site"));
    expect(await screen.findByRole("list", { name: "Sites" })).toHaveTextContent("Budapest");
    await waitFor(() =>
      expect(screen.getByRole("navigation", { name: "Main menu" })).toHaveTextContent(demoMenu[1].label),
    );
    expect(server.callsTo("GET", "/api/me/sites")).toHaveLength(1);
    expect(server.callsTo("GET", "/api/me/menu")).toHaveLength(1);
  });

  it("still signs in when the early sites call fails, and asks for the sites again", async () => {
    let sitesCalls = 0;
    const server = fakeServer(
      signedInHandlers({
        "GET /api/me/sites": () =>
          ++sitesCalls === 1 ? { status: 503, error: "Unavailable" } : { data: { items: demoSites } },
      }),
    );
    renderApp("/", { children: <SessionProbe /> });
    await waitFor(() => expect(probe()).toHaveTextContent("success|admin@example.com|"));
    await userEvent.click(await screen.findByTitle("Active site"));
    expect(await screen.findByRole("list", { name: "Sites" })).toHaveTextContent("Vienna");
    expect(server.callsTo("GET", "/api/me/sites")).toHaveLength(2);
  });

  it("tells when its token call has gone out, before the answer (the app draws only then)", async () => {
    const server = fakeServer(signedInHandlers({ "POST /api/token": () => new Promise<never>(() => {}) }));
    const store = createSessionStore();
    void store.start();
    await store.tokenAsked;
    expect(server.callsTo("POST", "/api/token")).toHaveLength(1);
    expect(store.getState().status).toBe("loading");
    store.dispose();
  });

  it("shows a spinner named Loading while the session starts", async () => {
    fakeServer(signedInHandlers({ "POST /api/token": () => new Promise<never>(() => {}) }));
    renderApp("/");
    expect(await screen.findByRole("status", { name: "Loading" })).toBeInTheDocument();
    expect(screen.queryByText("Welcome back!")).not.toBeInTheDocument();
  });

  it("treats a failed token refresh as logged out: status error, Failed to get access token, /login", async () => {
    const server = fakeServer(
      signedInHandlers({ "POST /api/token": () => ({ status: 401, error: "Not signed in" }) }),
    );
    renderApp("/therapy-categories", { children: <SessionProbe /> });
    expect(await screen.findByText("Welcome back!")).toBeInTheDocument();
    expect(probe()).toHaveTextContent("error|anonymous|Failed to get access token");
    expect(server.callsTo("GET", "/api/me")).toHaveLength(0);
    // A plain first visit (401: no refresh cookie) raises no toast.
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("says Failed to get access token in a toast when the server cannot be reached", async () => {
    fakeServer(signedInHandlers({ "POST /api/token": () => Promise.reject(new TypeError("Network down")) }));
    renderApp("/");
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to get access token");
  });

  it("treats a failed user load as logged out with Failed to get user info", async () => {
    fakeServer(signedInHandlers({ "GET /api/me": () => ({ status: 500, error: "Internal error" }) }));
    renderApp("/", { children: <SessionProbe /> });
    expect(await screen.findByText("Welcome back!")).toBeInTheDocument();
    expect(probe()).toHaveTextContent("error|anonymous|Failed to get user info");
    expect(screen.getByRole("alert")).toHaveTextContent("Failed to get user info");
  });
});

describe("tokens", () => {
  it("refreshes the access token shortly before it expires and sends the new one", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = fakeServer(
      signedInHandlers({
        "POST /api/token": () => ({
          data: {
            accessToken: `access-${server.callsTo("POST", "/api/token").length}`,
            accessTokenExpire: 300,
            csrfToken: "csrf",
          },
        }),
      }),
    );
    renderApp("/");
    await screen.findByRole("link", { name: "New visit" });
    expect(server.callsTo("POST", "/api/token")).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(239_000));
    expect(server.callsTo("POST", "/api/token")).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(server.callsTo("POST", "/api/token")).toHaveLength(2);
    await act(() => api.get("me"));
    expect(server.callsTo("GET", "/api/me").at(-1)?.headers.Authorization).toBe("Bearer access-2");
  });

  it("sends the CSRF token on writes", async () => {
    const server = fakeServer(signedInHandlers({ "POST /api/things": () => ({ status: 201, data: {} }) }));
    renderApp("/");
    await screen.findByRole("link", { name: "New visit" });
    await act(() => api.post("things", { a: 1 }));
    expect(server.callsTo("POST", "/api/things")[0].headers["x-csrf-token"]).toBe("csrf-1");
  });

  it("answers a 401 with one refresh and a retry", async () => {
    let first = true;
    const server = fakeServer(
      signedInHandlers({
        "GET /api/things": (call) => {
          if (first) {
            first = false;
            return { status: 401, error: "Token expired" };
          }
          return { data: { auth: call.headers.Authorization } };
        },
      }),
    );
    renderApp("/");
    await screen.findByRole("link", { name: "New visit" });
    await expect(api.get("things")).resolves.toEqual({ auth: "Bearer access-1" });
    expect(server.callsTo("POST", "/api/token")).toHaveLength(2);
  });

  it("signs out to /login when a 401 survives the refresh", async () => {
    let tokens = 0;
    fakeServer(
      signedInHandlers({
        "POST /api/token": () =>
          ++tokens === 1
            ? { data: { accessToken: "access-1", accessTokenExpire: 900, csrfToken: "csrf-1" } }
            : { status: 401, error: "Refresh token revoked" },
        "GET /api/things": () => ({ status: 401, error: "Token expired" }),
      }),
    );
    renderApp("/");
    await screen.findByRole("link", { name: "New visit" });
    await act(() => api.get("things").catch(() => null));
    expect(await screen.findByText("Welcome back!")).toBeInTheDocument();
  });
});

describe("sign-out", () => {
  it("calls the server, clears the user and tokens and says You have been logged out!", async () => {
    const server = fakeServer(signedInHandlers());
    renderApp("/logout", { children: <SessionProbe /> });
    expect(await screen.findByText("You have been logged out!")).toBeInTheDocument();
    expect(server.callsTo("GET", "/api/logout")).toHaveLength(1);
    expect(probe()).toHaveTextContent("success|anonymous|");
    expect(screen.getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");
    // The access token is gone: the next call goes without a bearer header.
    await act(() => api.get("me").catch(() => null));
    expect(server.callsTo("GET", "/api/me").at(-1)?.headers.Authorization).toBeUndefined();
  });

  it("Log out in the user menu goes to /logout", async () => {
    const user = userEvent.setup();
    const server = fakeServer(signedInHandlers());
    renderApp("/");
    await user.click(await screen.findByRole("button", { name: "User menu" }));
    expect(screen.getByRole("menuitem", { name: demoUser.email })).toBeInTheDocument();
    expect(screen.getByRole("menuitem", { name: "Ada Admin" })).toBeInTheDocument();
    expect(screen.getByText("Profile")).toBeInTheDocument();
    expect(screen.getByRole("menuitem", { name: "Change password" })).toBeInTheDocument();
    expect(screen.getByRole("menuitem", { name: "Settings" })).toBeInTheDocument();
    await user.click(screen.getByRole("menuitem", { name: "Log out" }));
    expect(await screen.findByText("You have been logged out!")).toBeInTheDocument();
    await waitFor(() => expect(server.callsTo("GET", "/api/logout")).toHaveLength(1));
  });
});

describe("several tabs", () => {
  it("ends this tab's session when another tab signs out", async () => {
    fakeServer(signedInHandlers());
    const other = createSessionStore();
    await other.start();
    renderApp("/", { children: <SessionProbe /> });
    await screen.findByRole("link", { name: "New visit" });
    await act(() => other.signOut());
    expect(await screen.findByText("Welcome back!")).toBeInTheDocument();
    expect(probe()).toHaveTextContent("success|anonymous|");
    other.dispose();
  });

  it("ends this tab's session when another tab signs in as someone else", async () => {
    const someoneElse = {
      ...demoUser,
      uuid: "usr-00000000-0000-4000-8000-000000000002",
      email: "b@example.com",
    };
    fakeServer(
      signedInHandlers({
        "POST /api/auth": () => ({
          data: { user: someoneElse, accessToken: "access-b", accessTokenExpire: 900, csrfToken: "csrf-b" },
        }),
      }),
    );
    renderApp("/", { children: <SessionProbe /> });
    await screen.findByRole("link", { name: "New visit" });
    const other = createSessionStore();
    other.connect();
    await act(() => other.signIn("b@example.com", "secret123"));
    expect(await screen.findByText("Welcome back!")).toBeInTheDocument();
    other.dispose();
  });
});
