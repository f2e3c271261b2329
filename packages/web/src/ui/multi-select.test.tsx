import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Field } from "./field";
import { MultiSelect } from "./multi-select";
import type { SelectOption } from "./select";

const sites: SelectOption<number>[] = [
  { value: 1, label: "BUD - Budapest" },
  { value: 2, label: "VIE - Vienna" },
  { value: 3, label: "WAW - Warsaw" },
];

function Harness({ initial = [] }: { initial?: number[] }) {
  const [value, setValue] = useState<number[]>(initial);
  return (
    <>
      <Field id="sites" label="Sites">
        {(control) => <MultiSelect {...control} value={value} options={sites} onChange={setValue} />}
      </Field>
      <output aria-label="value">{JSON.stringify(value)}</output>
    </>
  );
}

const chosenValue = () => JSON.parse(screen.getByLabelText("value").textContent ?? "[]");

describe("MultiSelect", () => {
  it("is found by its label, toggles items by click and keeps the list open", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const combobox = screen.getByRole("combobox", { name: "Sites" });
    expect(combobox).toHaveTextContent("Select...");
    await user.click(combobox);
    await user.click(screen.getByRole("option", { name: "WAW - Warsaw" }));
    await user.click(screen.getByRole("option", { name: "BUD - Budapest" }));
    // Chosen values keep the options' order, whatever the order of clicks.
    expect(chosenValue()).toEqual([1, 3]);
    expect(screen.getByRole("option", { name: "BUD - Budapest" })).toHaveAttribute("aria-checked", "true");
    await user.click(screen.getByRole("option", { name: "BUD - Budapest" }));
    expect(chosenValue()).toEqual([3]);
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("option")).not.toBeInTheDocument();
    expect(combobox).toHaveTextContent("WAW - Warsaw");
  });

  it("says the chosen items by name, not how many (issue 15)", () => {
    render(<Harness initial={[1, 2]} />);
    const combobox = screen.getByRole("combobox", { name: "Sites" });
    expect(combobox).toHaveTextContent("BUD - Budapest, VIE - Vienna");
    expect(combobox).not.toHaveTextContent("selected");
  });

  it("searches by label and says Nothing found", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByLabelText("Sites"));
    await user.type(screen.getByPlaceholderText("Search..."), "vie");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["VIE - Vienna"]);
    await user.type(screen.getByPlaceholderText("Search..."), "zzz");
    expect(screen.getByText("Nothing found")).toBeInTheDocument();
  });

  it("removes a chip by its button, and the last one by Backspace", async () => {
    const user = userEvent.setup();
    render(<Harness initial={[1, 2, 3]} />);
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "BUD - Budapest",
      "VIE - Vienna",
      "WAW - Warsaw",
    ]);
    await user.click(screen.getByRole("button", { name: "Remove VIE - Vienna" }));
    expect(chosenValue()).toEqual([1, 3]);
    screen.getByRole("combobox", { name: "Sites" }).focus();
    await user.keyboard("{Backspace}");
    expect(chosenValue()).toEqual([1]);
  });

  it("works by keyboard: open, search, choose with Enter", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    screen.getByRole("combobox", { name: "Sites" }).focus();
    await user.keyboard("{Enter}");
    await user.keyboard("war{Enter}");
    expect(chosenValue()).toEqual([3]);
    await user.clear(screen.getByPlaceholderText("Search..."));
    await user.keyboard("{ArrowDown}{Enter}");
    expect(chosenValue()).toEqual([2, 3]);
    await user.keyboard("{Escape}");
    expect(screen.getByRole("combobox", { name: "Sites" })).toHaveTextContent("VIE - Vienna, WAW - Warsaw");
    const chips = screen.getAllByRole("listitem");
    expect(within(chips[0] as HTMLElement).getByRole("button")).toHaveAccessibleName("Remove VIE - Vienna");
  });
});
