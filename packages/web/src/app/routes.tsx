import type { RouteObject } from "react-router";
import { PublicLayout, RequireSession } from "./frame";
import { HomePage } from "./home";
import { LoginPage } from "./login";
import { LogoutPage } from "./logout";
import { NotFoundPage } from "./not-found";
import { RouteError } from "./route-error";

/**
 * The route tree of spec §2.1: /login and /logout public, the public resource details in the frame
 * or bare, everything else inside the signed-in frame. Built from the resources' routes so tests can
 * hand in their own.
 */
export function buildRoutes(resources: {
  resourceRoutes: RouteObject[];
  publicResourceRoutes: RouteObject[];
}): RouteObject[] {
  return [
    {
      errorElement: <RouteError />,
      children: [
        { path: "/login", element: <LoginPage /> },
        { path: "/logout", element: <LogoutPage /> },
        { element: <PublicLayout />, children: resources.publicResourceRoutes },
        {
          element: <RequireSession />,
          // Errors in a screen stay inside the frame, so the menu still works.
          children: [
            {
              errorElement: <RouteError />,
              children: [
                { path: "/", element: <HomePage /> },
                { path: "/index.html", element: <HomePage /> },
                ...resources.resourceRoutes,
                { path: "*", element: <NotFoundPage /> },
              ],
            },
          ],
        },
      ],
    },
  ];
}
