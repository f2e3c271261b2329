import {
  canAddContact,
  canRemoveContact,
  contactNotesInput,
  contactNotesMaxLength,
  contactTypes,
  contactValueInput,
  emailContactMaxLength,
  emptyContact,
  type FieldErrors,
  normalizePhone,
  type PatientContactInput,
  phoneContactMaxLength,
} from "@trialdesk/domain";
import { Plus, Trash2 } from "lucide-react";
import { Button } from "../../ui/button";
import { Input } from "../../ui/input";
import { SearchableSelect } from "../../ui/select";

const typeOptions = contactTypes.map((type) => ({ value: type.value, label: type.label }));

/** The form shows at least one contact row: a patient saved without contacts gets an empty phone again. */
export const shownContacts = (contacts: PatientContactInput[] | undefined): PatientContactInput[] =>
  contacts && contacts.length > 0 ? contacts : [emptyContact("PHONE")];

/**
 * The patient's contacts (spec §2.5, §5): type PHONE or EMAIL, value and notes. A phone keeps digits,
 * plus and spaces (at most 18) and is normalised when it loses focus; an e-mail is at most 60, notes
 * at most 200. Add is disabled while any contact lacks type or value; the first contact stays.
 * Every change replaces the whole list (the form's set contacts action).
 */
export function ContactsBlock({
  contacts: given,
  errors,
  onChange,
  disabled,
  phoneCountry,
}: {
  contacts: PatientContactInput[] | undefined;
  errors: FieldErrors;
  onChange: (contacts: PatientContactInput[]) => void;
  disabled?: boolean;
  /** The site's country: a local phone number is read as one of it ("06 30 …" in HU is +36 30 …). */
  phoneCountry?: string | null;
}) {
  const contacts = shownContacts(given);
  const change = (index: number, patch: Partial<PatientContactInput>) =>
    onChange(contacts.map((contact, i) => (i === index ? { ...contact, ...patch } : contact)));

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-base font-semibold text-gray-900">Contacts</legend>
      <ol className="flex flex-col gap-3">
        {contacts.map((contact, index) => {
          const n = index + 1;
          const isPhone = contact.contactType === "PHONE";
          const valueError = errors[`contacts.${index}.value`];
          const typeError = errors[`contacts.${index}.contactType`];
          const notesError = errors[`contacts.${index}.notes`];
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: contacts have no id until saved; the position is the identity
            <li key={index} className="grid grid-cols-1 items-start gap-2 sm:grid-cols-[9rem_1fr_1fr_auto]">
              <div className="flex flex-col gap-1">
                <label htmlFor={`field-contacts-${index}-contactType`} className="sr-only">
                  {`Contact ${n} type`}
                </label>
                <SearchableSelect
                  id={`field-contacts-${index}-contactType`}
                  aria-invalid={typeError ? true : undefined}
                  options={typeOptions}
                  value={contact.contactType}
                  disabled={disabled}
                  onChange={(contactType) =>
                    change(index, { contactType, value: contactValueInput(contactType, contact.value) })
                  }
                />
                {typeError && <p className="text-xs font-medium text-red-700">{typeError}</p>}
              </div>
              <div className="flex flex-col gap-1">
                <Input
                  id={`field-contacts-${index}-value`}
                  aria-label={`Contact ${n} value`}
                  type={isPhone ? "tel" : "email"}
                  inputMode={isPhone ? "tel" : "email"}
                  placeholder={isPhone ? "+36 30 123 4567" : "name@example.com"}
                  maxLength={isPhone ? phoneContactMaxLength : emailContactMaxLength}
                  invalid={Boolean(valueError)}
                  readOnly={disabled}
                  autoComplete="off"
                  value={contact.value}
                  onChange={(event) =>
                    change(index, { value: contactValueInput(contact.contactType, event.target.value) })
                  }
                  onBlur={() => {
                    if (!isPhone) return;
                    const phone = normalizePhone(contact.value, phoneCountry);
                    if (phone !== contact.value) change(index, { value: phone });
                  }}
                />
                {valueError && <p className="text-xs font-medium text-red-700">{valueError}</p>}
              </div>
              <div className="flex flex-col gap-1">
                <Input
                  id={`field-contacts-${index}-notes`}
                  aria-label={`Contact ${n} notes`}
                  placeholder="Notes"
                  maxLength={contactNotesMaxLength}
                  invalid={Boolean(notesError)}
                  readOnly={disabled}
                  value={contact.notes ?? ""}
                  onChange={(event) => change(index, { notes: contactNotesInput(event.target.value) })}
                />
                {notesError && <p className="text-xs font-medium text-red-700">{notesError}</p>}
              </div>
              <div className="flex min-w-24 items-center">
                {canRemoveContact(index) && (
                  <Button
                    variant="ghost"
                    className="text-red-700"
                    aria-label={`Remove contact ${n}`}
                    disabled={disabled}
                    onClick={() => onChange(contacts.filter((_, i) => i !== index))}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                    Remove
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          variant="secondary"
          disabled={disabled || !canAddContact(contacts)}
          onClick={() => onChange([...contacts, emptyContact("PHONE")])}
        >
          <Plus aria-hidden="true" className="size-4" />
          Add contact
        </Button>
      </div>
    </fieldset>
  );
}
