import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { addYears, toIsoDate } from "@trialdesk/domain";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { DatePicker } from "./date-picker";
import { Field } from "./field";

function Harness({ initial = "", min, max }: { initial?: string; min?: string; max?: string }) {
  const [value, setValue] = useState<string>(initial);
  return (
    <>
      <Field id="fpfv" label="FPFV" required>
        {(control) => (
          <DatePicker {...control} label="FPFV" value={value} onChange={setValue} min={min} max={max} />
        )}
      </Field>
      <output aria-label="value">{value}</output>
    </>
  );
}

const calendarButton = () => screen.getByRole("button", { name: "Open calendar for FPFV" });
const day = (name: RegExp) => screen.getByRole("button", { name });

describe("DatePicker", () => {
  it("names its calendar button after its field, so three on one form differ; the label names only the input", () => {
    render(
      <div>
        {["FPFV", "LPFV", "LPLV"].map((label) => (
          <Field key={label} id={label.toLowerCase()} label={label}>
            {(control) => <DatePicker {...control} label={label} value="" onChange={() => {}} />}
          </Field>
        ))}
      </div>,
    );
    expect(screen.getAllByRole("button").map((b) => b.textContent)).toEqual([
      "Open calendar for FPFV",
      "Open calendar for LPFV",
      "Open calendar for LPLV",
    ]);
    expect(screen.getByLabelText("LPFV")).toHaveAttribute("id", "lpfv");
  });

  it("is found by its label and types digits into yyyy-MM-dd with the hyphens added", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText("FPFV");
    expect(input).toHaveAttribute("placeholder", "yyyy-MM-dd");
    await user.type(input, "2025a0/31.5");
    expect(input).toHaveValue("2025-03-15");
    expect(screen.getByLabelText("value")).toHaveTextContent("2025-03-15");
    await user.type(input, "9");
    expect(input).toHaveValue("2025-03-15");
    await user.clear(input);
    await user.type(input, "2024-");
    expect(input).toHaveValue("2024-");
    // A date copied from a letter as day.month.year is pasted as that date.
    await user.clear(input);
    await user.paste("26.11.2026");
    expect(input).toHaveValue("2026-11-26");
    expect(screen.getByLabelText("value")).toHaveTextContent("2026-11-26");
  });

  it("opens on the typed month with Monday first and picks a day by click", async () => {
    const user = userEvent.setup();
    render(<Harness initial={`${toIsoDate(new Date()).slice(0, 8)}15`} />);
    await user.click(calendarButton());
    // The weekday row is hidden from assistive technology (each day's name says its weekday).
    const headers = screen.getByRole("grid").querySelectorAll("th");
    expect(headers[0]).toHaveAttribute("aria-label", "Monday");
    expect(headers[6]).toHaveAttribute("aria-label", "Sunday");
    expect(day(/15th.*selected/)).toBeInTheDocument();
    await user.click(day(/ 20th, /));
    expect(screen.queryByRole("grid")).not.toBeInTheDocument();
    expect(screen.getByLabelText("FPFV")).toHaveValue(`${toIsoDate(new Date()).slice(0, 8)}20`);
  });

  it("is used by keyboard: Enter opens, arrows move, Enter picks", async () => {
    const user = userEvent.setup();
    render(<Harness initial="2025-03-15" min="2025-01-01" max="2025-12-31" />);
    calendarButton().focus();
    await user.keyboard("{Enter}");
    expect(day(/March 15th, 2025/)).toHaveFocus();
    await user.keyboard("{ArrowRight}{ArrowDown}{Enter}");
    expect(screen.getByLabelText("value")).toHaveTextContent("2025-03-23");
    await user.click(calendarButton());
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("grid")).not.toBeInTheDocument();
  });

  it("keeps days outside its bounds out of reach", async () => {
    const user = userEvent.setup();
    render(<Harness initial="2025-03-15" min="2025-03-10" max="2025-03-20" />);
    await user.click(calendarButton());
    expect(day(/March 9th, 2025/)).toBeDisabled();
    expect(day(/March 21st, 2025/)).toBeDisabled();
    expect(day(/March 10th, 2025/)).toBeEnabled();
  });

  it("spans 10 years back to 5 years ahead when it has no bounds", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(calendarButton());
    const today = toIsoDate(new Date());
    const years = within(screen.getByRole("combobox", { name: /year/i }))
      .getAllByRole("option")
      .map((o) => Number(o.textContent));
    expect(years[0]).toBe(Number(addYears(today, -10).slice(0, 4)));
    expect(years.at(-1)).toBe(Number(addYears(today, 5).slice(0, 4)));
  });
});
