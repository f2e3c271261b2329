import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ScheduleRow } from "./schedule-row";

const entry = { daysFromStart: 14, allowedDaysBefore: 2, allowedDaysAfter: 3 };

function renderRow() {
  const onSave = vi.fn();
  render(<ScheduleRow entry={entry} from="Screening" to="Run-in" onSave={onSave} />);
  return { onSave, user: userEvent.setup() };
}

const row = () => screen.getByRole("button", { name: /Schedule from Screening to Run-in/ });

describe("schedule row", () => {
  it("reads N days (-before / +after) and opens the editor on a click", async () => {
    const { user } = renderRow();
    expect(row()).toHaveTextContent("14 days (-2 / +3)");
    await user.click(row());
    expect(screen.getByRole("group", { name: "Schedule from Screening to Run-in" })).toBeInTheDocument();
    expect(screen.getByLabelText("Days")).toHaveValue("14");
    expect(screen.getByLabelText("Days")).toHaveFocus();
    expect(screen.getByLabelText("Window before")).toHaveValue("2");
    expect(screen.getByLabelText("Window after")).toHaveValue("3");
  });

  it("keeps only digits, turns negatives into 0, days 3 digits and windows 2, and saves numbers", async () => {
    const { user, onSave } = renderRow();
    row().focus();
    await user.keyboard("{Enter}");
    const days = screen.getByLabelText("Days");
    await user.clear(days);
    await user.type(days, "1a2b34");
    expect(days).toHaveValue("123");
    const before = screen.getByLabelText("Window before");
    await user.clear(before);
    await user.type(before, "-7");
    expect(before).toHaveValue("0");
    const after = screen.getByLabelText("Window after");
    await user.clear(after);
    await user.type(after, "456");
    expect(after).toHaveValue("45");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith({ daysFromStart: 123, allowedDaysBefore: 0, allowedDaysAfter: 45 });
    expect(row()).toHaveFocus();
  });

  it("saves an emptied field as 0", async () => {
    const { user, onSave } = renderRow();
    await user.click(row());
    await user.clear(screen.getByLabelText("Window after"));
    await user.keyboard("{Enter}");
    expect(onSave).toHaveBeenCalledWith({ daysFromStart: 14, allowedDaysBefore: 2, allowedDaysAfter: 0 });
  });

  it("drops the edit on Escape and on Cancel", async () => {
    const { user, onSave } = renderRow();
    await user.click(row());
    await user.type(screen.getByLabelText("Days"), "9");
    await user.keyboard("{Escape}");
    expect(screen.queryByLabelText("Days")).not.toBeInTheDocument();
    expect(row()).toHaveFocus();
    await user.click(row());
    expect(screen.getByLabelText("Days")).toHaveValue("14");
    await user.type(screen.getByLabelText("Window before"), "5");
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(row()).toHaveTextContent("14 days (-2 / +3)");
    expect(onSave).not.toHaveBeenCalled();
  });
});
