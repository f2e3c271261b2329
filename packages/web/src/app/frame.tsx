import { desktopMinWidth, versionLabel } from "@trialdesk/domain";
import { FlaskConical, Menu as MenuIcon } from "lucide-react";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { Link, Navigate, Outlet } from "react-router";
import { getConfig } from "./config";
import { ClockCountdown } from "./countdown";
import { useFocusHeadingOnNavigation } from "./focus-on-navigation";
import { Menu } from "./menu";
import { useSession } from "./session";
import { ActiveSiteProvider, SiteSelector } from "./site";
import { PageSpinner } from "./spinner";
import { UserMenu } from "./user-menu";

const desktopQuery = `(min-width: ${desktopMinWidth}px)`;

function isDesktop(): boolean {
  return typeof window.matchMedia === "function" ? window.matchMedia(desktopQuery).matches : true;
}

/** The menu is open on desktop and collapsed (toggled by a button) below 1024 px (spec §1, §9). */
function useMenuOpen() {
  const [desktop, setDesktop] = useState(isDesktop);
  const [open, setOpen] = useState(desktop);
  useEffect(() => {
    if (typeof window.matchMedia !== "function") return;
    const media = window.matchMedia(desktopQuery);
    const onChange = () => {
      setDesktop(media.matches);
      setOpen(media.matches);
    };
    media.addEventListener("change", onChange);
    return () => media.removeEventListener("change", onChange);
  }, []);
  return { desktop, open, setOpen };
}

/** The signed-in frame: left menu, top bar (clock and countdown, site, user, version) and the screen. */
export function Frame({ children }: { children?: ReactNode }) {
  const { desktop, open, setOpen } = useMenuOpen();
  const main = useRef<HTMLElement>(null);
  useFocusHeadingOnNavigation(main);
  // On a narrow screen the menu lies over the page, so following a link closes it.
  const closeOnNarrow = useCallback(() => {
    if (!desktop) setOpen(false);
  }, [desktop, setOpen]);
  return (
    <ActiveSiteProvider>
      {/* The first stop of the keyboard: past the menu and the top bar to the screen (issue 46); the
          browser moves the focus to the target, which takes it (tabIndex -1). */}
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 font-medium text-blue-800 shadow focus:not-sr-only focus:fixed focus:left-2 focus:top-2"
      >
        Skip to content
      </a>
      {/* Printed (a statement's Print), the page is the screen alone: no menu, no top bar, no scroll box. */}
      <div className="flex h-dvh bg-gray-50 text-gray-900 print:block print:h-auto print:bg-white">
        {open && !desktop && (
          <div
            aria-hidden
            className="fixed inset-0 z-30 bg-gray-900/30 print:hidden"
            onClick={() => setOpen(false)}
          />
        )}
        <aside
          id="main-menu"
          hidden={!open}
          onKeyDown={(event) => {
            if (event.key === "Escape" && !desktop) setOpen(false);
          }}
          className={`flex w-60 shrink-0 flex-col border-r border-gray-200 bg-white print:hidden ${
            desktop ? "" : "fixed inset-y-0 left-0 z-40 shadow-xl"
          }`}
        >
          <Link
            to="/"
            onClick={closeOnNarrow}
            className="flex h-12 items-center gap-2 border-b border-gray-200 px-4 font-semibold text-blue-700"
          >
            <FlaskConical aria-hidden className="size-5" />
            Trialdesk
          </Link>
          <Menu onNavigate={closeOnNarrow} />
        </aside>
        <div className="flex min-w-0 flex-1 flex-col print:block">
          {/* At 390 px everything fits on one line: smaller gaps, the site label cut, nothing wraps. */}
          <header className="flex h-12 shrink-0 items-center gap-1.5 border-b border-gray-200 bg-white px-2 sm:gap-3 sm:px-3 print:hidden">
            <button
              type="button"
              aria-label="Toggle menu"
              aria-expanded={open}
              aria-controls="main-menu"
              onClick={() => setOpen(!open)}
              className="rounded-md p-1.5 text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              <MenuIcon aria-hidden className="size-5" />
            </button>
            <div className="flex-1" />
            <ClockCountdown timeoutSeconds={getConfig().inactivityTimeoutSeconds} />
            <SiteSelector />
            <UserMenu />
            <span title="Version" className="shrink-0 whitespace-nowrap text-xs text-gray-500">
              {versionLabel}
            </span>
          </header>
          <main
            ref={main}
            id="main-content"
            tabIndex={-1}
            className="min-w-0 flex-1 overflow-auto p-4 outline-none print:overflow-visible print:p-0"
          >
            {children ?? <Outlet />}
          </main>
        </div>
      </div>
    </ActiveSiteProvider>
  );
}

/** Signed-in routes (spec §2.1): a spinner while the session starts, /login for anonymous users. */
export function RequireSession() {
  const { status, user } = useSession();
  if (status === "idle" || status === "loading") return <PageSpinner />;
  if (!user) return <Navigate to="/login" replace />;
  return <Frame />;
}

/** Public pages (therapy category and area details): in the frame when signed in, bare otherwise. */
export function PublicLayout() {
  const { status, user } = useSession();
  if (status === "idle" || status === "loading") return <PageSpinner />;
  if (user) return <Frame />;
  return (
    <div className="min-h-dvh bg-gray-50 text-gray-900">
      <header className="flex h-12 items-center gap-3 border-b border-gray-200 bg-white px-4">
        <span className="flex items-center gap-2 font-semibold text-blue-700">
          <FlaskConical aria-hidden className="size-5" />
          Trialdesk
        </span>
        <div className="flex-1" />
        <Link
          to="/login"
          className="rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          Login
        </Link>
      </header>
      <main className="mx-auto max-w-5xl p-4">
        <Outlet />
      </main>
    </div>
  );
}
