import * as Popover from "@radix-ui/react-popover";
import { Command } from "cmdk";
import { Check, ChevronsUpDown, X } from "lucide-react";
import { type KeyboardEvent, useState } from "react";
import { FieldPopover } from "./field-popover";
import { type ChoiceProps, comboboxAttributes, containsFilter, SearchBox, type SelectValue } from "./select";

/**
 * A searchable multi-select (e.g. a user's or a project's sites): the chosen items are chips with a
 * remove button each, and the combobox (named by the field's label) says them by name; it opens a
 * list with a search box where Enter or a click toggles an item and the list stays open for the next
 * one. Escape closes; Backspace on the closed combobox removes the last chip. The chosen values keep
 * the options' order.
 */
export function MultiSelect<V extends SelectValue>({
  value,
  options,
  onChange,
  placeholder = "Select...",
  searchPlaceholder = "Search...",
  emptyText = "Nothing found",
  disabled,
  loading,
  className = "",
  ...control
}: ChoiceProps<V> & {
  value: V[] | null | undefined;
  onChange: (value: V[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const chosenKeys = new Set((value ?? []).map(String));
  const labelOf = (v: V) => options.find((o) => String(o.value) === String(v))?.label ?? String(v);
  // Until the options load, the values are bare ids: say Loading... instead.
  const names = loading ? "" : (value ?? []).map(labelOf).join(", ");
  const { listId, trigger } = comboboxAttributes(open, control);

  const set = (keys: Set<string>) => {
    // Keep the options' order; values not (yet) among the options stay at the end.
    const known = options.filter((o) => keys.has(String(o.value))).map((o) => o.value);
    const unknown = (value ?? []).filter(
      (v) => keys.has(String(v)) && !options.some((o) => String(o.value) === String(v)),
    );
    onChange([...known, ...unknown]);
  };
  const toggle = (v: V) => {
    const keys = new Set(chosenKeys);
    if (keys.has(String(v))) keys.delete(String(v));
    else keys.add(String(v));
    set(keys);
  };
  const remove = (v: V) => {
    const keys = new Set(chosenKeys);
    keys.delete(String(v));
    set(keys);
  };
  const onTriggerKeyDown = (event: KeyboardEvent) => {
    const chosen = value ?? [];
    if (event.key === "Backspace" && !open && chosen.length > 0 && !disabled) {
      event.preventDefault();
      remove(chosen[chosen.length - 1] as V);
    }
  };

  return (
    <div
      className={`flex flex-wrap items-center gap-1.5 rounded-md border bg-white p-1.5 shadow-sm ${disabled ? "bg-gray-100" : ""} ${control["aria-invalid"] ? "border-red-600" : "border-gray-300"} ${className}`}
    >
      {(value ?? []).length > 0 && (
        <ul className="contents">
          {(value ?? []).map((v) => (
            <li
              key={String(v)}
              className="inline-flex items-center gap-1 rounded bg-blue-50 py-0.5 pr-0.5 pl-2 text-sm text-blue-900 ring-1 ring-blue-200 ring-inset"
            >
              {labelOf(v)}
              {!disabled && (
                <button
                  type="button"
                  aria-label={`Remove ${labelOf(v)}`}
                  onClick={() => remove(v)}
                  className="rounded p-0.5 text-blue-700 hover:bg-blue-100 focus-visible:outline-2 focus-visible:outline-blue-600"
                >
                  <X aria-hidden="true" className="size-3.5" />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Popover.Root
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setSearch("");
        }}
      >
        <Popover.Trigger asChild disabled={disabled}>
          <button
            {...trigger}
            onKeyDown={onTriggerKeyDown}
            className="flex min-w-32 flex-1 items-center justify-between gap-2 rounded px-1 py-0.5 text-left text-sm text-gray-500 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed"
          >
            {/* The chips show the chosen items; the combobox says them by name too (issue 15: not
                "2 selected"), for whoever reads its value rather than the chips. */}
            {loading ? (
              <span className="truncate">Loading...</span>
            ) : names ? (
              <span className="sr-only">{names}</span>
            ) : (
              <span className="truncate">{placeholder}</span>
            )}
            <ChevronsUpDown aria-hidden="true" className="size-4 shrink-0" />
          </button>
        </Popover.Trigger>
        <FieldPopover
          fieldId={control.id}
          sideOffset={6}
          aria-label="Options"
          className="z-50 w-[var(--radix-popover-trigger-width)] min-w-56 rounded-md border border-gray-200 bg-white shadow-lg"
        >
          <Command filter={containsFilter} loop label="Options">
            <SearchBox value={search} onValueChange={setSearch} placeholder={searchPlaceholder} />
            <Command.List id={listId} aria-multiselectable="true" className="max-h-64 overflow-auto p-1">
              <Command.Empty className="px-2 py-1.5 text-sm text-gray-500">{emptyText}</Command.Empty>
              {options.map((option) => {
                const checked = chosenKeys.has(String(option.value));
                return (
                  <Command.Item
                    key={String(option.value)}
                    value={String(option.value)}
                    keywords={[option.label]}
                    aria-checked={checked}
                    onSelect={() => toggle(option.value)}
                    className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-gray-900 data-[selected=true]:bg-blue-50 data-[selected=true]:text-blue-900"
                  >
                    <span
                      aria-hidden="true"
                      className={`flex size-4 shrink-0 items-center justify-center rounded border ${checked ? "border-blue-700 bg-blue-700" : "border-gray-400"}`}
                    >
                      {checked && <Check className="size-3 text-white" />}
                    </span>
                    {option.label}
                  </Command.Item>
                );
              })}
            </Command.List>
          </Command>
        </FieldPopover>
      </Popover.Root>
    </div>
  );
}
