import { act, render, screen } from "@testing-library/react";
import { useState } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { type ParamChanges, useUrlParams } from "./url-params";

describe("useUrlParams", () => {
  it("keeps a change made meanwhile when a change from an earlier drawing lands (a search sent after a chip)", () => {
    let firstUpdate: ((changes: ParamChanges) => void) | null = null;
    let latestUpdate: ((changes: ParamChanges, options?: { resetPage?: boolean }) => void) | null = null;
    function Screen() {
      const [params, update] = useUrlParams();
      const [kept] = useState(() => update);
      firstUpdate = kept;
      latestUpdate = update;
      return <output aria-label="params">{params.toString()}</output>;
    }
    const router = createMemoryRouter([{ path: "/list", element: <Screen /> }], {
      initialEntries: ["/list?page=3"],
    });
    render(<RouterProvider router={router} />);
    // A chip pressed: its filter, from page 1.
    act(() => latestUpdate?.({ status: "PENDING" }, { resetPage: true }));
    // The search debounced since the first drawing lands afterwards.
    act(() => firstUpdate?.({ searchTerm: "BUD" }));
    expect(screen.getByRole("status", { name: "params" }).textContent).toBe("status=PENDING&searchTerm=BUD");
  });
});
