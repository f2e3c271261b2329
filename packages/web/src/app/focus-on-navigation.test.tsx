import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useEffect, useRef, useState } from "react";
import { MemoryRouter, Route, Routes, useNavigate } from "react-router";
import { describe, expect, it } from "vitest";
import { useFocusHeadingOnNavigation } from "./focus-on-navigation";

/** A screen whose button leads on (and leaves with the screen) and whose heading may come late. */
function Screen({ title, next, lateMs = 0 }: { title: string; next: string; lateMs?: number }) {
  const navigate = useNavigate();
  const [shown, setShown] = useState(lateMs === 0);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), lateMs);
    return () => clearTimeout(timer);
  }, [lateMs]);
  return (
    <>
      {shown && <h1>{title}</h1>}
      <button type="button" onClick={() => navigate(next)}>
        Open {next}
      </button>
    </>
  );
}

function Layout() {
  const main = useRef<HTMLElement>(null);
  useFocusHeadingOnNavigation(main);
  const navigate = useNavigate();
  return (
    <>
      <nav>
        <button type="button" onClick={() => navigate("/c")}>
          Menu C
        </button>
      </nav>
      <main ref={main}>
        <Routes>
          <Route path="/a" element={<Screen key="a" title="Screen A" next="/b" />} />
          <Route path="/b" element={<Screen key="b" title="Screen B" next="/a" lateMs={50} />} />
          <Route path="/c" element={<Screen key="c" title="Screen C" next="/a" />} />
        </Routes>
      </main>
    </>
  );
}

const renderAt = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <Layout />
    </MemoryRouter>,
  );

describe("focus after a navigation", () => {
  it("leaves the first screen's focus alone", () => {
    renderAt("/a");
    expect(document.activeElement).toBe(document.body);
  });

  it("goes to the new screen's heading when the pressed button left with its screen, once the heading is there", async () => {
    const user = userEvent.setup();
    renderAt("/a");
    await user.click(screen.getByRole("button", { name: "Open /b" }));
    const heading = await screen.findByRole("heading", { name: "Screen B" });
    await expect.poll(() => document.activeElement).toBe(heading);
    // The next Tab reaches the screen's first control.
    await user.tab();
    expect(screen.getByRole("button", { name: "Open /a" })).toHaveFocus();
  });

  it("stays on a control that is still there, such as a menu link", async () => {
    const user = userEvent.setup();
    renderAt("/a");
    await user.click(screen.getByRole("button", { name: "Menu C" }));
    await screen.findByRole("heading", { name: "Screen C" });
    expect(screen.getByRole("button", { name: "Menu C" })).toHaveFocus();
  });
});
