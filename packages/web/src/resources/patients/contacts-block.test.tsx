import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PatientContactInput } from "@trialdesk/domain";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { ContactsBlock } from "./contacts-block";

function Harness({ initial, phoneCountry }: { initial?: PatientContactInput[]; phoneCountry?: string }) {
  const [contacts, setContacts] = useState<PatientContactInput[] | undefined>(initial);
  return (
    <>
      <ContactsBlock
        contacts={contacts}
        errors={{ "contacts.0.notes": "Too long" }}
        onChange={setContacts}
        phoneCountry={phoneCountry}
      />
      <output>{JSON.stringify(contacts ?? null)}</output>
    </>
  );
}

const add = () => screen.getByRole("button", { name: "Add contact" });
const saved = () => JSON.parse(screen.getByRole("status").textContent ?? "null") as PatientContactInput[];

describe("the patient's contacts block", () => {
  it("shows one empty phone contact when there are none, and Add stays disabled until it has a value", async () => {
    const user = userEvent.setup();
    render(<Harness initial={[]} />);
    expect(screen.getByRole("combobox", { name: "Contact 1 type" })).toHaveTextContent("Phone");
    expect(add()).toBeDisabled();
    await user.type(screen.getByRole("textbox", { name: "Contact 1 value" }), "0036 1 234");
    expect(add()).toBeEnabled();
    await user.click(add());
    expect(saved()).toHaveLength(2);
    expect(add()).toBeDisabled();
  });

  it("never offers to remove the first contact; each other one has Remove", async () => {
    const user = userEvent.setup();
    render(
      <Harness
        initial={[
          { id: 1, contactType: "PHONE", value: "+36 1 234", notes: null },
          { id: 2, contactType: "EMAIL", value: "a@example.com", notes: "work" },
          { id: 3, contactType: "PHONE", value: "+43 1 999", notes: null },
        ]}
      />,
    );
    expect(screen.queryByRole("button", { name: "Remove contact 1" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Remove contact 2" }));
    expect(saved().map((c) => c.value)).toEqual(["+36 1 234", "+43 1 999"]);
    expect(screen.getByRole("button", { name: "Remove contact 2" })).toBeInTheDocument();
  });

  it("keeps a phone to digits, plus and spaces (18 at most) and normalises it on blur", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const value = screen.getByRole("textbox", { name: "Contact 1 value" });
    await user.type(value, "0036 (30) 123-4567");
    expect(value).toHaveValue("0036 30 1234567");
    await user.tab();
    // Grouped as the phone library writes the number.
    expect(value).toHaveValue("+36 30 123 4567");
    await user.clear(value);
    await user.type(value, "1 555 0100 2222 33334444");
    expect(value).toHaveValue("1 555 0100 2222 33");
    await user.clear(value);
    await user.type(value, "1 212 555 0100");
    await user.tab();
    // A one-digit country code stays one digit (issue 46).
    expect(value).toHaveValue("+1 212 555 0100");
    expect(saved()[0].value).toBe("+1 212 555 0100");
  });

  it("reads a local number as one of the site's country on blur: 06 30 … in Hungary is +36 30 …", async () => {
    const user = userEvent.setup();
    render(<Harness phoneCountry="HU" />);
    const value = screen.getByRole("textbox", { name: "Contact 1 value" });
    await user.type(value, "06 30 123 4567");
    await user.tab();
    expect(value).toHaveValue("+36 30 123 4567");
    await user.clear(value);
    await user.type(value, "30 123 4567");
    await user.tab();
    expect(value).toHaveValue("+36 30 123 4567");
  });

  it("cuts an e-mail at 60 and notes at 200, and shows a contact's error", async () => {
    const user = userEvent.setup();
    render(<Harness initial={[{ id: null, contactType: "EMAIL", value: "", notes: "" }]} />);
    const value = screen.getByRole("textbox", { name: "Contact 1 value" });
    await user.click(value);
    await user.paste(`${"a".repeat(70)}@example.com`);
    expect(value).toHaveValue("a".repeat(60));
    const notes = screen.getByRole("textbox", { name: "Contact 1 notes" });
    await user.click(notes);
    await user.paste("n".repeat(250));
    expect(notes).toHaveValue("n".repeat(200));
    expect(screen.getByText("Too long")).toBeInTheDocument();
    await user.tab();
    expect(value).toHaveValue("a".repeat(60));
  });
});
