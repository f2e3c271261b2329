import { Link, useLocation } from "react-router";

/** Unknown routes inside the frame, and records that are not found (another site's: `title` names it). */
export function NotFoundPage({ title }: { title?: string }) {
  const { pathname } = useLocation();
  return (
    <div className="mx-auto max-w-xl rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      <h1 className="mb-2 text-lg font-semibold">{title ?? "Page not found"}</h1>
      <p className="mb-4 text-sm text-gray-600">
        {title ? (
          "The record does not exist, or it is not one you can see."
        ) : (
          <>
            There is no page at <code className="rounded bg-gray-100 px-1">{pathname}</code>.
          </>
        )}
      </p>
      <Link to="/" className="text-sm font-medium text-blue-700 hover:underline">
        Go to the home page
      </Link>
    </div>
  );
}
