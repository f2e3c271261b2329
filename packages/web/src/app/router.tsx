import { createBrowserRouter } from "react-router";
import { publicResourceRoutes, resourceRoutes } from "../resources";
import { buildRoutes } from "./routes";

/** The app's data router (the generic form needs one for useBlocker). */
export function createAppRouter() {
  return createBrowserRouter(buildRoutes({ resourceRoutes, publicResourceRoutes }));
}
