import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Pager } from "./pager";

describe("Pager", () => {
  it("shows the spec's text and the page links for an ordinary list", async () => {
    const onPage = vi.fn();
    render(<Pager page={1} pageSize={10} total={25} onPage={onPage} />);
    expect(screen.getByText("Showing 1 to 10 of 25 entries")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Page 3" }));
    expect(onPage).toHaveBeenCalledWith(3);
  });

  it("says 'of more than 10,000 entries' beyond the count bound and keeps Next open", async () => {
    const onPage = vi.fn();
    render(<Pager page={1} pageSize={50} total={10_001} onPage={onPage} />);
    expect(screen.getByText("Showing 1 to 50 of more than 10,000 entries")).toBeInTheDocument();
    expect(screen.queryByText(/of 10001 entries/)).not.toBeInTheDocument();
    // Page 201 is the last one known to exist (row 10,001 is on it).
    expect(screen.getByRole("button", { name: "Page 201" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Next page" }));
    expect(onPage).toHaveBeenCalledWith(2);
  });

  it("on a deep page beyond the bound, names the rows known to exist", () => {
    render(<Pager page={1000} pageSize={50} total={50_001} onPage={() => {}} />);
    expect(screen.getByText("Showing 49,951 to 50,000 of more than 50,000 entries")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Page 1000" })).toHaveAttribute("aria-current", "page");
    expect(screen.getByRole("button", { name: "Next page" })).toBeEnabled();
  });
});
