import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { toast } from "./toast";
import { Toaster } from "./toaster";

describe("toast area (spec §4 Toasts)", () => {
  it("shows at most one toast: the newest", () => {
    render(<Toaster />);
    act(() => {
      toast({ title: "Item deleted", variant: "success" });
      toast({ title: "Can not delete item: Still referenced", variant: "destructive" });
    });
    expect(screen.getByRole("alert")).toHaveTextContent("Can not delete item: Still referenced");
    expect(screen.queryByText("Item deleted")).not.toBeInTheDocument();
  });

  it("lets a success toast last 2000 ms", () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: "Therapy category created", variant: "success" });
    });
    expect(screen.getByRole("status")).toHaveTextContent("Therapy category created");
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.getByText("Therapy category created")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText("Therapy category created")).not.toBeInTheDocument();
  });

  it("keeps a destructive toast until it is closed", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<Toaster />);
    act(() => {
      toast({
        title: "Can not load data: Failed to get data",
        description: "GET_ERROR",
        variant: "destructive",
      });
    });
    act(() => vi.advanceTimersByTime(60_000));
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("Can not load data: Failed to get data");
    expect(alert).toHaveTextContent("GET_ERROR");
    await user.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("shows a default toast politely", () => {
    render(<Toaster />);
    act(() => {
      toast({ title: "Saved draft" });
    });
    expect(screen.getByRole("status")).toHaveAttribute("data-variant", "default");
  });
});
