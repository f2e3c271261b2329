import { type RefObject, useEffect, useRef } from "react";
import { useLocation } from "react-router";

/** How long after a navigation a screen's heading may still appear (a lazy screen, its first data). */
const waitMs = 5_000;

/**
 * After a navigation that took the keyboard focus away (the link or button pressed was on the screen
 * that left), focus goes to the new screen's heading: the next Tab reaches its first control, not the
 * menu at the top of the page, and a screen reader reads where the person is. A focus that survived
 * the navigation (a menu link, a search box) is left where it is; the first load is left alone.
 */
export function useFocusHeadingOnNavigation(main: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const area = main.current;
    if (!area) return;
    const focusLost = () => !document.activeElement || document.activeElement === document.body;
    const tryFocus = () => {
      const heading = area.querySelector("h1");
      if (!heading || !focusLost()) return false;
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
      return true;
    };
    if (tryFocus()) return;
    const observer = new MutationObserver(() => {
      if (tryFocus()) observer.disconnect();
    });
    observer.observe(area, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), waitMs);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname, main]);
}
