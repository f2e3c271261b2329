import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import {
  type AppConfig,
  type MenuItem,
  type SignedInUser,
  type SiteOption,
  type WorklistState,
  worklistStates,
} from "@trialdesk/domain";
import { type ReactNode, StrictMode } from "react";
import { createMemoryRouter, type RouteObject, RouterProvider } from "react-router";
import { type Call, defaultUser, envelopeResponse, stubFetch } from "../../screens/test-utils";
import { createQueryClient } from "../query-client";
import { buildRoutes } from "../routes";
import { SessionProvider } from "../session";
import { Toaster } from "../toaster";

/**
 * A fake of the server's HTTP contract for the frame's tests: handlers keyed by "METHOD /path"
 * answer with the envelope; every call is recorded with its headers and body.
 */
export type Reply = { status?: number; data?: unknown; error?: string } | Promise<never>;
export type Handler = (call: Call) => Reply;
export type { Call };

/** The screens' tests' administrator, here with the two demo sites. */
export const demoUser: SignedInUser = { ...defaultUser, siteIds: [1, 2] };

export const demoConfig: AppConfig = {
  apiBaseUrl: "/api",
  defaultPageSize: 20,
  inactivityTimeoutSeconds: 900,
  minimumPatientAge: 18,
  maximumPatientAge: 100,
  summaryStudyUuid: "std-00000000-0000-4000-8000-000000000042",
};

export const demoSites: SiteOption[] = [
  {
    id: 1,
    uuid: "sit-00000000-0000-4000-8000-000000000001",
    code: "BUD",
    shortName: "Budapest",
    city: "Budapest",
  },
  { id: 2, uuid: "sit-00000000-0000-4000-8000-000000000002", code: "VIE", shortName: "Vienna", city: "Wien" },
];

export const demoMenu: MenuItem[] = [
  { key: "home", label: "Home", route: "/", icon: "house", iconVariant: null, children: [] },
  {
    key: "reference",
    label: "Reference data",
    route: null,
    icon: "database",
    iconVariant: null,
    children: [
      {
        key: "therapy-categories",
        label: "Therapy categories",
        route: "/therapy-categories",
        icon: "no-such-icon",
        iconVariant: null,
        children: [],
      },
    ],
  },
];

/** A worklist answer with no rows and the given counts per state (the home tiles read only these). */
export function worklistAnswer(counts: Partial<Record<WorklistState, number>> = {}) {
  const none = Object.fromEntries(worklistStates.map((state) => [state, 0]));
  return { items: [], pagination: { page: 1, pageSize: 1, total: 0 }, counts: { ...none, ...counts } };
}

/** The handlers of a signed-in start-up: config, token, me, menu and sites. */
export function signedInHandlers(overrides: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    "GET /config.json": () => ({ data: demoConfig }),
    "POST /api/token": () => ({
      data: { accessToken: "access-1", accessTokenExpire: 900, csrfToken: "csrf-1" },
    }),
    "GET /api/me": () => ({ data: demoUser }),
    "GET /api/me/menu": () => ({ data: demoMenu }),
    "GET /api/me/sites": () => ({ data: { items: demoSites } }),
    "GET /api/logout": () => ({ data: null }),
    ...overrides,
  };
}

export function fakeServer(handlers: Record<string, Handler>) {
  const calls = stubFetch(async (call) => {
    const handler = handlers[`${call.method} ${call.path}`];
    if (!handler)
      return envelopeResponse({
        status: 404,
        errorMessage: `No fake for ${call.method} ${call.path}`,
        errorCode: "ERROR",
      });
    const reply = await handler(call);
    // /config.json is not an API answer: it is the bare configuration.
    if (call.path === "/config.json")
      return new Response(JSON.stringify(reply.data), { status: reply.status ?? 200 });
    return envelopeResponse({
      status: reply.status,
      data: reply.data,
      errorMessage: reply.error,
      errorCode: "ERROR",
    });
  });
  return {
    calls,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

/** A small screen standing in for the resources' routes. */
export const testResourceRoutes: RouteObject[] = [
  { path: "/therapy-categories", element: <h1>Therapy categories list</h1> },
  { path: "/patients/create", element: <h1>Patient form</h1> },
];
export const testPublicRoutes: RouteObject[] = [
  { path: "/therapy-categories/:itemId", element: <h1>Therapy category detail</h1> },
];

/** Renders the whole app (session, router, toasts) at a path, with the test routes for resources. */
export function renderApp(
  path: string,
  extra: { children?: ReactNode; resourceRoutes?: RouteObject[] } = {},
) {
  const router = createMemoryRouter(
    buildRoutes({
      resourceRoutes: extra.resourceRoutes ?? testResourceRoutes,
      publicResourceRoutes: testPublicRoutes,
    }),
    { initialEntries: [path] },
  );
  const queryClient = createQueryClient();
  // StrictMode as in main.tsx: it creates and discards state and runs effects twice.
  const result = render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <RouterProvider router={router} />
          <Toaster />
          {extra.children}
        </SessionProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
  return { ...result, router, queryClient };
}
