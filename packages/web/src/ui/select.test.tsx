import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Field } from "./field";
import { SearchableSelect, type SelectOption } from "./select";

const names = ["Oncology", "Cardiology", "Neurology", "Dermatology", "Hematology", "Rheumatology", "Urology"];
const options = (n: number): SelectOption<number>[] =>
  names.slice(0, n).map((label, i) => ({ value: i + 1, label }));

function Harness({ count, emptyText }: { count: number; emptyText?: string }) {
  const [value, setValue] = useState<number | null>(null);
  return (
    <Field id="category" label="Therapy Category" required>
      {(control) => (
        <SearchableSelect
          {...control}
          value={value}
          options={options(count)}
          onChange={setValue}
          emptyText={emptyText}
        />
      )}
    </Field>
  );
}

describe("SearchableSelect", () => {
  it("is found by its label, shows Select... and no search box with 5 options", async () => {
    const user = userEvent.setup();
    render(<Harness count={5} />);
    const trigger = screen.getByLabelText("Therapy Category");
    expect(trigger).toHaveTextContent("Select...");
    await user.click(trigger);
    expect(screen.getByRole("option", { name: "Oncology" })).toBeInTheDocument();
    expect(screen.queryByPlaceholderText("Search...")).not.toBeInTheDocument();
    await user.click(screen.getByRole("option", { name: "Neurology" }));
    expect(screen.getByLabelText("Therapy Category")).toHaveTextContent("Neurology");
  });

  it("shows Search... above 5 options, filters by label, and says Nothing found", async () => {
    const user = userEvent.setup();
    render(<Harness count={7} />);
    await user.click(screen.getByLabelText("Therapy Category"));
    const search = screen.getByPlaceholderText("Search...");
    await user.type(search, "olo");
    expect(screen.getAllByRole("option")).toHaveLength(7);
    await user.clear(search);
    await user.type(search, "card");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Cardiology"]);
    await user.type(search, "xyz");
    expect(screen.queryAllByRole("option")).toHaveLength(0);
    expect(screen.getByText("Nothing found")).toBeInTheDocument();
  });

  it("opens again with an empty search box and every option, after a search that found nothing", async () => {
    const user = userEvent.setup();
    render(<Harness count={7} />);
    await user.click(screen.getByLabelText("Therapy Category"));
    await user.type(screen.getByPlaceholderText("Search..."), "xyz");
    expect(screen.getByText("Nothing found")).toBeInTheDocument();
    await user.keyboard("{Escape}");
    await user.click(screen.getByLabelText("Therapy Category"));
    expect(screen.getByPlaceholderText("Search...")).toHaveValue("");
    expect(screen.getAllByRole("option")).toHaveLength(7);
    expect(screen.queryByText("Nothing found")).not.toBeInTheDocument();
  });

  it("takes a configured empty text and is chosen by keyboard", async () => {
    const user = userEvent.setup();
    render(<Harness count={7} emptyText="No item found" />);
    screen.getByLabelText("Therapy Category").focus();
    await user.keyboard("{Enter}");
    await user.type(screen.getByPlaceholderText("Search..."), "zzz");
    expect(screen.getByText("No item found")).toBeInTheDocument();
    await user.clear(screen.getByPlaceholderText("Search..."));
    await user.keyboard("{ArrowDown}{Enter}");
    expect(screen.getByLabelText("Therapy Category")).toHaveTextContent("Cardiology");
  });

  it("works by keyboard without a search box too", async () => {
    const user = userEvent.setup();
    render(<Harness count={3} />);
    screen.getByLabelText("Therapy Category").focus();
    await user.keyboard("{Enter}");
    await user.keyboard("{ArrowDown}{Enter}");
    expect(screen.getByLabelText("Therapy Category")).toHaveTextContent("Cardiology");
  });

  it("opens with the arrow keys, and Escape closes it keeping the choice and the focus", async () => {
    const user = userEvent.setup();
    render(<Harness count={3} />);
    const trigger = screen.getByLabelText("Therapy Category");
    trigger.focus();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("option", { name: "Oncology" })).toBeInTheDocument();
    await user.keyboard("{ArrowDown}{Enter}");
    expect(trigger).toHaveTextContent("Cardiology");
    await user.keyboard("{ArrowUp}");
    expect(screen.getAllByRole("option")).toHaveLength(3);
    await user.keyboard("{Escape}");
    expect(screen.queryAllByRole("option")).toHaveLength(0);
    expect(trigger).toHaveTextContent("Cardiology");
    expect(trigger).toHaveFocus();
  });

  it("opens on the chosen option, so Enter to open and Enter again keeps the choice", async () => {
    const user = userEvent.setup();
    render(<Harness count={7} />);
    const trigger = screen.getByLabelText("Therapy Category");
    trigger.focus();
    await user.keyboard("{Enter}{ArrowDown}{ArrowDown}{Enter}");
    expect(trigger).toHaveTextContent("Neurology");
    await user.keyboard("{Enter}");
    expect(screen.getByRole("option", { name: "Neurology" })).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{Enter}");
    expect(trigger).toHaveTextContent("Neurology");
  });
});
