import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { type FieldSpec, FormField } from "./FormFields";
import { stubApi } from "./test-utils";
import { useFormState } from "./useFormState";

type Person = { id: number; lastName: string; firstName: string };
const people: Person[] = [
  { id: 1, lastName: "Huber", firstName: "Eva" },
  { id: 2, lastName: "Nowak", firstName: "Piotr" },
  { id: 3, lastName: "Kiss", firstName: "Ilona" },
];

/** A lookup searched on the server, as the patient selects use it. */
const spec: FieldSpec = {
  name: "patientId",
  label: "Patient",
  kind: "select",
  placeholder: "Type to select a patient ...",
  lookup: {
    resource: "patients",
    pageSize: 100,
    query: { forSelect: "true", siteId: 7 },
    search: "search",
    option: (p) => ({ value: p.id, label: `${p.lastName} ${p.firstName}` }),
    selected: (data) =>
      data.patientId ? { value: data.patientId, label: `${data.lastName} ${data.firstName}` } : null,
  },
};

function Harness({ initial }: { initial: Record<string, unknown> }) {
  const form = useFormState(() => initial);
  return (
    <>
      <FormField spec={spec} form={form} />
      <output aria-label="value">{String(form.formData.patientId ?? "")}</output>
    </>
  );
}

function renderField(initial: Record<string, unknown> = { patientId: null }) {
  const calls = stubApi((call) => {
    const term = (call.search.get("search") ?? "").toLowerCase();
    const items = people.filter((p) => `${p.lastName} ${p.firstName}`.toLowerCase().includes(term));
    return { data: { items, pagination: { page: 1, pageSize: 100, total: items.length } } };
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Harness initial={initial} />
    </QueryClientProvider>,
  );
  return calls;
}

describe("a lookup searched on the server", () => {
  it("sends the typed text as its search parameter once typing stops, and shows the server's options", async () => {
    const user = userEvent.setup();
    const calls = renderField();
    const trigger = screen.getByLabelText("Patient");
    await waitFor(() => expect(trigger).toHaveTextContent("Type to select a patient ..."));
    await user.click(trigger);
    // The search box shows even with few options: the server has more.
    const box = screen.getByPlaceholderText("Search...");
    expect(screen.getAllByRole("option")).toHaveLength(3);
    await user.type(box, "kiss");
    await waitFor(() =>
      expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Kiss Ilona"]),
    );
    const searches = calls.map((c) => c.search.get("search"));
    // One call before typing and one for the settled text: not one per key.
    expect(searches).toEqual([null, "kiss"]);
    expect(calls[1].search.get("forSelect")).toBe("true");
    expect(calls[1].search.get("siteId")).toBe("7");
    expect(calls[1].search.get("pagesize")).toBe("100");
    await user.click(screen.getByRole("option", { name: "Kiss Ilona" }));
    expect(screen.getByLabelText("value")).toHaveTextContent("3");
    expect(screen.getByLabelText("Patient")).toHaveTextContent("Kiss Ilona");
    // Opened again, the search starts afresh and the choice keeps its label.
    await user.click(screen.getByLabelText("Patient"));
    expect(screen.getByPlaceholderText("Search...")).toHaveValue("");
    await waitFor(() => expect(screen.getAllByRole("option")).toHaveLength(3));
  });

  it("says Nothing found when the server finds nothing", async () => {
    const user = userEvent.setup();
    renderField();
    await user.click(screen.getByLabelText("Patient"));
    await user.type(screen.getByPlaceholderText("Search..."), "zzz");
    const list = await screen.findByRole("listbox");
    await waitFor(() => expect(within(list).getByText("Nothing found")).toBeInTheDocument());
  });

  it("shows a loaded record's choice from the form data though the first page lacks it", async () => {
    renderField({ patientId: 99, lastName: "Távoli", firstName: "Tímea" });
    expect(screen.getByLabelText("Patient")).toHaveTextContent("Távoli Tímea");
  });
});
