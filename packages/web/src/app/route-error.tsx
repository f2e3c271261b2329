import { isRouteErrorResponse, useRouteError } from "react-router";

/** Shown when a screen throws or its code fails to load (e.g. after a deploy): never a blank page. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <div
      role="alert"
      className="mx-auto m-4 max-w-xl rounded-lg border border-red-300 bg-red-50 p-6 text-red-900"
    >
      <h1 className="mb-2 text-lg font-semibold">Something went wrong</h1>
      <p className="mb-4 text-sm">{message}</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800"
      >
        Reload the page
      </button>
    </div>
  );
}
