import { CircleCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { isSessionExpiry } from "./countdown";
import { useSession } from "./session";
import { PageSpinner } from "./spinner";

/** /logout (spec §2.5): ends the session on the server and here, then says so. */
export function LogoutPage() {
  const { signOut } = useSession();
  // Sent here by the inactivity countdown: say why (issue 15).
  const expired = isSessionExpiry(useLocation());
  const [done, setDone] = useState(false);
  const called = useRef(false);
  useEffect(() => {
    // Once only: StrictMode runs effects twice, and a second logout call would be pointless.
    if (called.current) return;
    called.current = true;
    void signOut().finally(() => setDone(true));
  }, [signOut]);
  if (!done) return <PageSpinner />;
  return (
    <main className="flex min-h-dvh items-center justify-center bg-gray-50 p-4 text-gray-900">
      <div className="w-full max-w-sm rounded-lg border border-gray-200 bg-white p-6 text-center shadow-sm">
        <CircleCheck aria-hidden className="mx-auto mb-3 size-8 text-green-600" />
        <h1 className="mb-4 text-lg font-semibold">You have been logged out!</h1>
        {expired && <p className="mb-4 text-sm text-gray-700">Your session ended because of inactivity.</p>}
        <Link
          to="/login"
          className="inline-flex items-center justify-center rounded-md bg-blue-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          Login
        </Link>
      </div>
    </main>
  );
}
