import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import type userEvent from "@testing-library/user-event";
import type { FieldError, SignedInUser } from "@trialdesk/domain";
import { createMemoryRouter, type InitialEntry, type RouteObject, RouterProvider } from "react-router";
import { expect, vi } from "vitest";
import { SessionProvider } from "../app/session";
import { useToasts } from "../app/toast";

/** Test helpers for the screens: a data router with a query client, and a fetch stub speaking the envelope. */
function ToastList() {
  const toasts = useToasts().filter((t) => t.open);
  return (
    <output aria-label="toasts">
      {toasts.map((t) => (
        <p key={t.id} data-variant={t.variant}>
          {t.title}
          {t.description ? ` — ${t.description}` : ""}
        </p>
      ))}
    </output>
  );
}

export function renderRoutes(
  routes: RouteObject[],
  initialEntries: InitialEntry[],
  options: { session?: boolean } = { session: true },
) {
  const router = createMemoryRouter(routes, { initialEntries, initialIndex: initialEntries.length - 1 });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const app = (
    <>
      <RouterProvider router={router} />
      <ToastList />
    </>
  );
  // The real session start-up runs against the stubbed fetch (see signedInAs).
  const view = render(
    <QueryClientProvider client={client}>
      {options.session ? <SessionProvider>{app}</SessionProvider> : app}
    </QueryClientProvider>,
  );
  return { router, client, ...view };
}

/** The user the session start-up signs in as unless a test says otherwise: an administrator. */
export const defaultUser: SignedInUser = {
  id: 1,
  uuid: "usr-00000000-0000-4000-8000-000000000001",
  email: "admin@example.com",
  profile: { firstName: "Ada", lastName: "Admin" },
  isAdmin: true,
  siteIds: [],
  kind: "user",
};
const sessionPaths = new Set(["/config.json", "/api/token", "/api/me"]);
/** The start-up's calls: the session's, and the user's sites and menu that it asks for beside the user. */
const startUpPaths = new Set([...sessionPaths, "/api/me/sites", "/api/me/menu"]);
const notFound: Reply = { status: 404, errorMessage: "Not found" };

export type Reply = {
  status?: number;
  data?: unknown;
  errorMessage?: string;
  errorCode?: string | null;
  fieldErrors?: FieldError[];
};
/** What stubApi asks about each call: a reply, or undefined for "Not found"; a promise holds it back. */
export type ApiHandler = (call: Call) => Reply | undefined | Promise<Reply | undefined>;

/** One fetch the code under test made, as both fakes (stubApi here, the frame's fakeServer) record it. */
export type Call = {
  method: string;
  /** The path without the query. */
  path: string;
  /** The whole URL, query included. */
  url: string;
  search: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
};

/** Stubs fetch: every call is recorded and answered by `respond`. Returns the calls made. */
export function stubFetch(respond: (call: Call) => Promise<Response> | Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), "http://localhost");
      const call: Call = {
        method: (init.method ?? "GET").toUpperCase(),
        path: url.pathname,
        url: url.href,
        search: url.searchParams,
        headers: Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>)),
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      };
      calls.push(call);
      return respond(call);
    }),
  );
  return calls;
}

/** A reply as the server sends it: the API envelope with its header and data. */
export function envelopeResponse(reply: Reply): Response {
  const status = reply.status ?? 200;
  const ok = status < 400;
  return new Response(
    JSON.stringify({
      header: {
        result: ok ? "success" : "error",
        errorMessage: ok ? null : (reply.errorMessage ?? "Failed"),
        errorCode: ok ? null : (reply.errorCode ?? null),
        errorDetail: null,
        fieldErrors: reply.fieldErrors ?? [],
        requestId: "req-1",
      },
      data: reply.data ?? null,
    }),
    { status, headers: { "Content-Type": "application/json" } },
  );
}

/**
 * Stubs the API: `handler` gets each call and answers a Reply, wrapped in the envelope; the session
 * start-up calls are answered as the default administrator. Returns the calls the screens made.
 */
export function stubApi(handler: ApiHandler) {
  const calls: Call[] = [];
  stubFetch(async (call) => {
    // The session start-up calls are not what the screens' tests look at.
    if (!startUpPaths.has(call.path)) calls.push(call);
    if (call.path === "/config.json") return new Response("{}", { status: 200 });
    // Session start-up calls are answered as the default administrator unless the handler comes
    // from signedInAs, which answers them itself.
    const session = sessionPaths.has(call.path) && !handlesSession.has(handler);
    return envelopeResponse(
      (await (session ? signedInAs(defaultUser, () => undefined)(call) : handler(call))) ?? notFound,
    );
  });
  return calls;
}

/** An answer held back until `release` is called: `await released` in a handler holds its call. */
export function heldBack() {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { released, release: () => release() };
}

/** The server's refusal of a save with one field's message (HTTP 400, "Invalid field data"). */
export function fieldRefusal(field: string, message: string): Reply {
  return { status: 400, errorMessage: "Invalid field data", fieldErrors: [{ field, message }] };
}

/** Clicks Save once the form lets it be clicked (the form loads and checks first); returns the button. */
export async function saveWhenReady(user: ReturnType<typeof userEvent.setup>) {
  const save = await waitFor(() => {
    const button = screen.getByRole("button", { name: "Save" });
    expect(button).toBeEnabled();
    return button;
  });
  await user.click(save);
  return save;
}

/**
 * Answers the "Reason for the change" an edit or removal of recorded clinical data asks (issue 46,
 * point 1) with one of its common reasons, and confirms it (Save, or Remove for a removal).
 */
export async function giveReason(user: ReturnType<typeof userEvent.setup>, reason = "Transcription error") {
  const dialog = await screen.findByRole("dialog", { name: "Reason for the change" });
  await user.click(within(dialog).getByRole("radio", { name: reason }));
  const [confirm] = within(dialog)
    .getAllByRole("button")
    .filter((button) => button.textContent !== "Cancel");
  await user.click(confirm);
}

/** Answers the session start-up calls: signed in as `user`, or signed out when null. */
const handlesSession = new WeakSet<ApiHandler>();

export function signedInAs(user: SignedInUser | null, handler: ApiHandler) {
  const answer: ApiHandler = (call) => {
    if (call.path === "/api/token")
      return user
        ? { data: { accessToken: "token", accessTokenExpire: 900, csrfToken: "csrf" } }
        : { status: 401, errorMessage: "Not signed in" };
    if (call.path === "/api/me")
      return user ? { data: user } : { status: 401, errorMessage: "Not signed in" };
    return handler(call);
  };
  handlesSession.add(answer);
  return answer;
}
