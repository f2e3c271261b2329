import { Link, useLocation } from "react-router";

/** Unknown routes inside the frame, and records that are not found (another site's: `title` names it). */
export function NotFoundPage({ title = "Page not found" }: { title?: string }) {
  const { pathname } = useLocation();
  return (
    <div className="mx-auto max-w-xl rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      <h1 className="mb-2 text-lg font-semibold">{title}</h1>
      <p className="mb-4 text-sm text-gray-600">
        There is no page at <code className="rounded bg-gray-100 px-1">{pathname}</code>.
      </p>
      <Link to="/" className="text-sm font-medium text-blue-700 hover:underline">
        Go to the home page
      </Link>
    </div>
  );
}
