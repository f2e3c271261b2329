import * as Popover from "@radix-ui/react-popover";
import { Command } from "cmdk";
import { Check, ChevronsUpDown } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import type { ControlProps } from "./field";
import { FieldPopover } from "./field-popover";

export type SelectValue = string | number;
/** One choice; options with a group are shown under that group's heading, in order. */
export type SelectOption<V extends SelectValue = SelectValue> = {
  value: V;
  label: string;
  group?: string;
  /** Shown but not choosable (e.g. a second randomisation visit type). */
  disabled?: boolean;
};

/** The search box appears only when there are more than this many options (spec §2.3). */
export const searchBoxThreshold = 5;

/** Case-insensitive "contains" on the label: predictable for codes and names alike. */
export const containsFilter = (_value: string, search: string, keywords?: string[]) =>
  (keywords ?? []).some((k) => k.toLowerCase().includes(search.trim().toLowerCase())) ? 1 : 0;

function groupsOf<V extends SelectValue>(options: SelectOption<V>[]) {
  const groups = new Map<string, SelectOption<V>[]>();
  for (const option of options) {
    const key = option.group ?? "";
    groups.set(key, [...(groups.get(key) ?? []), option]);
  }
  return [...groups.entries()];
}

/** What the single and the multi-select take alike. */
export type ChoiceProps<V extends SelectValue> = ControlProps & {
  options: SelectOption<V>[];
  placeholder?: string;
  searchPlaceholder?: string;
  emptyText?: string;
  disabled?: boolean;
  loading?: boolean;
  className?: string;
};

/**
 * The trigger's combobox attributes (ARIA combobox pattern): it names the list it opens, and takes
 * the field's id and aria attributes so the field's label names it.
 */
export function comboboxAttributes(open: boolean, control: ControlProps) {
  const { required: _required, ...ariaControl } = control;
  const listId = `${control.id}-list`;
  return {
    listId,
    trigger: {
      type: "button" as const,
      role: "combobox",
      "aria-expanded": open,
      "aria-controls": open ? listId : undefined,
      "aria-haspopup": "listbox" as const,
      ...ariaControl,
    },
  };
}

/** The search box at the top of an open list, named by its placeholder ("Search..."). */
export function SearchBox({
  value,
  onValueChange,
  placeholder,
}: {
  value: string;
  onValueChange: (text: string) => void;
  placeholder: string;
}) {
  return (
    <Command.Input
      value={value}
      onValueChange={onValueChange}
      placeholder={placeholder}
      aria-label={placeholder}
      className="w-full border-b border-gray-200 px-2.5 py-2 text-sm outline-none"
    />
  );
}

/**
 * The generic searchable select of spec §2.3 (cmdk in a Radix popover): the trigger shows the chosen
 * label or the placeholder "Select..."; the list has a search box "Search..." only when there are
 * more than 5 options, and the empty text "Nothing found" (configurable). Arrow keys, Enter and
 * Escape work; the trigger takes the field's id, so the field's label names it.
 */
export function SearchableSelect<V extends SelectValue>({
  value,
  options,
  onChange,
  placeholder = "Select...",
  searchPlaceholder = "Search...",
  emptyText = "Nothing found",
  disabled,
  loading,
  className = "",
  renderOption,
  onSearchChange,
  selectedOption,
  ...control
}: ChoiceProps<V> & {
  value: V | null | undefined;
  onChange: (value: V) => void;
  renderOption?: (option: SelectOption<V>) => ReactNode;
  /**
   * Searching on the server: the typed text is handed here and the options are taken as they come
   * (no filtering here); the search box then always shows, as the options change with the text.
   */
  onSearchChange?: (text: string) => void;
  /** The chosen value's option for when it is not among `options` (narrowed by a server search). */
  selectedOption?: SelectOption<V> | null;
}) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const rootRef = useRef<HTMLDivElement>(null);
  const chosen =
    options.find((o) => String(o.value) === String(value ?? "")) ??
    (selectedOption && String(selectedOption.value) === String(value ?? "") ? selectedOption : undefined);
  const serverSearch = Boolean(onSearchChange);
  const searchable = serverSearch || options.length > searchBoxThreshold;
  // The highlighted option, which Enter takes. A list opens on the chosen option, as a select does:
  // cmdk opened on the first, so Enter to open and Enter again turned Completed into Booked. cmdk
  // moves it to the first match of a search it filters itself; options a server search sends are new
  // items it does not move it to (typing "toth" and Enter chose nothing), so the first of them is
  // highlighted as they come. Empty lets cmdk take its first item.
  const [highlighted, setHighlighted] = useState("");
  const chosenKey = chosen ? String(chosen.value) : "";
  useEffect(() => {
    if (open) setHighlighted(chosenKey);
  }, [open, chosenKey]);
  const firstEnabled = options.find((option) => !option.disabled);
  const highlightedShown = options.some((option) => String(option.value) === highlighted);
  useEffect(() => {
    if (serverSearch && open && !highlightedShown && firstEnabled) setHighlighted(String(firstEnabled.value));
  }, [serverSearch, open, highlightedShown, firstEnabled]);
  const changeOpen = (next: boolean) => {
    setOpen(next);
    // Every search starts afresh each time the list opens (an old text would hide the options).
    if (!next && search !== "") {
      setSearch("");
      onSearchChange?.("");
    }
  };
  const { listId, trigger } = comboboxAttributes(open, control);

  return (
    <Popover.Root open={open} onOpenChange={changeOpen}>
      <Popover.Trigger asChild disabled={disabled}>
        <button
          {...trigger}
          // As in the ARIA combobox pattern, the arrow keys open the closed list too.
          onKeyDown={(event) => {
            if ((event.key === "ArrowDown" || event.key === "ArrowUp") && !open && !disabled) {
              event.preventDefault();
              setOpen(true);
            }
          }}
          className={`flex w-full items-center justify-between gap-2 rounded-md border bg-white px-2.5 py-1.5 text-left text-sm shadow-sm focus-visible:outline-2 focus-visible:outline-blue-600 disabled:bg-gray-100 ${control["aria-invalid"] ? "border-red-600" : "border-gray-300"} ${className}`}
        >
          <span className={chosen ? "truncate text-gray-900" : "truncate text-gray-500"}>
            {chosen ? chosen.label : loading ? "Loading..." : placeholder}
          </span>
          <ChevronsUpDown aria-hidden="true" className="size-4 shrink-0 text-gray-500" />
        </button>
      </Popover.Trigger>
      <FieldPopover
        fieldId={control.id}
        aria-label="Options"
        className="z-50 w-[var(--radix-popover-trigger-width)] min-w-48 rounded-md border border-gray-200 bg-white shadow-lg"
        onOpenAutoFocus={(event) => {
          // Without a search box the list itself takes the keys (arrows, Enter).
          if (!searchable) {
            event.preventDefault();
            rootRef.current?.focus();
          }
        }}
      >
        <Command
          ref={rootRef}
          tabIndex={-1}
          filter={containsFilter}
          shouldFilter={!serverSearch}
          value={highlighted}
          onValueChange={setHighlighted}
          loop
          label={`${chosen?.label ?? placeholder} options`}
          className="outline-none"
        >
          {searchable && (
            <SearchBox
              value={search}
              onValueChange={(text) => {
                setSearch(text);
                onSearchChange?.(text);
              }}
              placeholder={searchPlaceholder}
            />
          )}
          <Command.List id={listId} className="max-h-64 overflow-auto p-1">
            {loading && serverSearch && options.length === 0 ? (
              <Command.Loading className="px-2 py-1.5 text-sm text-gray-500">Loading...</Command.Loading>
            ) : (
              <Command.Empty className="px-2 py-1.5 text-sm text-gray-500">{emptyText}</Command.Empty>
            )}
            {groupsOf(options).map(([group, items]) => (
              <Command.Group
                key={group}
                heading={group || undefined}
                className="[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-gray-500"
              >
                {items.map((option) => (
                  <Command.Item
                    key={String(option.value)}
                    value={String(option.value)}
                    keywords={[option.label]}
                    disabled={option.disabled}
                    onSelect={() => {
                      onChange(option.value);
                      changeOpen(false);
                    }}
                    className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-gray-900 data-[selected=true]:bg-blue-50 data-[selected=true]:text-blue-900 data-[disabled=true]:cursor-not-allowed data-[disabled=true]:text-gray-400"
                  >
                    <Check
                      aria-hidden="true"
                      className={`size-4 ${option === chosen ? "text-blue-700" : "invisible"}`}
                    />
                    {renderOption ? renderOption(option) : option.label}
                  </Command.Item>
                ))}
              </Command.Group>
            ))}
          </Command.List>
        </Command>
      </FieldPopover>
    </Popover.Root>
  );
}
