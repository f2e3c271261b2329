import { searchDebounceMs, valueAt } from "@trialdesk/domain";
import { type ReactNode, useEffect, useState } from "react";
import type { Query } from "../api/client";
import { useLookupRows } from "../api/queries";
import { toast } from "../app/toast";
import { Checkbox } from "../ui/checkbox";
import { CountrySelect } from "../ui/country-select";
import { DatePicker } from "../ui/date-picker";
import { type ControlProps, Field } from "../ui/field";
import { Input } from "../ui/input";
import { MultiSelect } from "../ui/multi-select";
import { SearchableSelect, type SelectOption, type SelectValue } from "../ui/select";
import type { Row } from "./ListScreen";
import type { FormApi } from "./useFormState";

/** Options read from another resource's list, e.g. the therapy categories of a therapy area (spec §7 Lookups). */
export type Lookup = {
  resource: string;
  pageSize: number;
  query?: Query;
  option: (item: Row) => SelectOption;
  /**
   * Search on the server: the typed text goes as this query parameter (e.g. "search" or
   * "searchTerm"), 300 ms after typing stops (spec §9), for lookups too long to load whole.
   */
  search?: string;
  /** The option of the form's current value, from the form data: a loaded record's choice may lie
   * beyond the options a search loads (e.g. the patient of an edited assignment). */
  selected?: (data: Row) => SelectOption | null;
};

type Common = {
  /** The field's key or dotted path in the form data; also where its errors are keyed. */
  name: string;
  label: string;
  required?: boolean;
  hint?: string;
  /** "small" for short codes. */
  width?: "small" | "medium" | "full";
};

export type FieldSpec =
  | (Common & {
      kind?: "text";
      type?: "text" | "email" | "password";
      maxLength?: number;
      /** Shown, never typed in: no tab stop either. */
      readOnly?: boolean;
      /** The hint while the field is empty, gone once it has a value (e.g. a barcode given on first save). */
      emptyHint?: string;
    })
  | (Common & { kind: "checkbox" })
  /** Longer free text such as notes, over several lines. */
  | (Common & { kind: "textarea"; maxLength?: number; rows?: number })
  /** The country selector (spec §2.5): a two-letter code. */
  | (Common & { kind: "country" })
  /** A date as yyyy-MM-dd, typed or picked; min and max bound the calendar. */
  | (Common & { kind: "date"; min?: string; max?: string; readOnly?: boolean })
  | (Common & {
      kind: "select";
      options?: SelectOption[];
      lookup?: Lookup;
      placeholder?: string;
      emptyText?: string;
      /** Shown but not changeable (the hint says why). */
      readOnly?: boolean;
    })
  | (Common & {
      kind: "multiselect";
      options?: SelectOption[];
      lookup?: Lookup;
      placeholder?: string;
      emptyText?: string;
    });

/** Width of the control; the label, hint and error keep the field's room so short codes stay readable. */
const controlWidths = { small: "max-w-28", medium: "", full: "" } as const;
const fieldWidths = { small: "max-w-sm", medium: "max-w-sm", full: "" } as const;

export const fieldId = (name: string) => `field-${name.replaceAll(".", "-")}`;

/** One field of a form description, bound to the form state. */
export function FormField<T>({ spec, form }: { spec: FieldSpec; form: FormApi<T> }) {
  const value = valueAt(form.formData, spec.name);
  const error = form.errors[spec.name];
  const id = fieldId(spec.name);
  const empty = value === null || value === undefined || value === "";
  const hint = (empty && "emptyHint" in spec && spec.emptyHint) || spec.hint;
  if (spec.kind === "checkbox") {
    return (
      <div>
        <Checkbox
          id={id}
          label={spec.label}
          checked={value === true}
          onCheckedChange={(checked) => form.setValue(spec.name, checked)}
        />
        {error && <p className="mt-1 text-xs font-medium text-red-700">{error}</p>}
      </div>
    );
  }
  return (
    <Field
      id={id}
      label={spec.label}
      required={spec.required}
      hint={hint}
      error={error}
      className={fieldWidths[spec.width ?? "medium"]}
    >
      {(control) =>
        spec.kind === "country" ? (
          <CountrySelect
            {...control}
            value={value as string | null}
            onChange={(v) => form.setValue(spec.name, v)}
            className={controlWidths[spec.width ?? "medium"]}
          />
        ) : spec.kind === "date" ? (
          <DatePicker
            {...control}
            label={spec.label}
            value={value as string | null}
            onChange={(v) => form.setValue(spec.name, v)}
            min={spec.min}
            max={spec.max}
            readOnly={spec.readOnly}
          />
        ) : spec.kind === "textarea" ? (
          <textarea
            {...control}
            maxLength={spec.maxLength}
            rows={spec.rows ?? 3}
            className={`block w-full rounded-md border px-2.5 py-1.5 text-sm shadow-sm focus:outline-2 focus:outline-blue-600 ${error ? "border-red-600" : "border-gray-300"}`}
            value={value === null || value === undefined ? "" : String(value)}
            onChange={(event) => form.setValue(spec.name, event.target.value)}
          />
        ) : spec.kind === "multiselect" ? (
          <LookupOptions lookup={spec.lookup} options={spec.options}>
            {(options, loading) => (
              <MultiSelect
                {...control}
                options={options}
                loading={loading}
                value={Array.isArray(value) ? (value as SelectValue[]) : []}
                onChange={(v) => form.setValue(spec.name, v)}
                placeholder={spec.placeholder}
                emptyText={spec.emptyText}
                className={controlWidths[spec.width ?? "medium"]}
              />
            )}
          </LookupOptions>
        ) : spec.kind === "select" ? (
          spec.lookup ? (
            <LookupSelect
              control={control}
              lookup={spec.lookup}
              selected={spec.lookup.selected?.(form.formData as Row) ?? null}
              value={value as SelectValue | null}
              onChange={(v) => form.setValue(spec.name, v)}
              placeholder={spec.placeholder}
              emptyText={spec.emptyText}
              className={controlWidths[spec.width ?? "medium"]}
              disabled={spec.readOnly}
            />
          ) : (
            <SearchableSelect
              className={controlWidths[spec.width ?? "medium"]}
              {...control}
              options={spec.options ?? []}
              value={value as SelectValue | null}
              onChange={(v) => form.setValue(spec.name, v)}
              placeholder={spec.placeholder}
              emptyText={spec.emptyText}
              disabled={spec.readOnly}
            />
          )
        ) : (
          <Input
            {...control}
            type={spec.type ?? "text"}
            maxLength={spec.maxLength}
            readOnly={spec.readOnly}
            tabIndex={spec.readOnly ? -1 : undefined}
            invalid={Boolean(error)}
            className={controlWidths[spec.width ?? "medium"]}
            autoComplete={spec.type === "password" ? "new-password" : "off"}
            value={value === null || value === undefined ? "" : String(value)}
            onChange={(event) => form.setValue(spec.name, event.target.value)}
          />
        )
      }
    </Field>
  );
}

/** The options of a field: given, or read from the lookup (with the same load-failure toast). */
function LookupOptions({
  lookup,
  options,
  children,
}: {
  lookup?: Lookup;
  options?: SelectOption[];
  children: (options: SelectOption[], loading: boolean) => ReactNode;
}) {
  const looked = useLookup(lookup);
  return <>{lookup ? children(looked.data ?? [], looked.isPending) : children(options ?? [], false)}</>;
}

function useLookup(lookup: Lookup | undefined, term = "") {
  const options = useLookupRows<Row, SelectOption[]>(lookup ?? { resource: "" }, {
    // Sent only when something was typed.
    search: lookup?.search && term ? { [lookup.search]: term } : {},
    select: (items) => items.map((item) => (lookup as Lookup).option(item)),
    enabled: Boolean(lookup),
    keepPrevious: Boolean(lookup?.search),
  });
  useEffect(() => {
    if (options.error)
      toast({ title: `Can not load data: ${options.error.message}`, variant: "destructive" });
  }, [options.error]);
  return options;
}

/** The value, once it has stayed the same for `ms` (the search debounce). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function LookupSelect({
  control,
  lookup,
  selected,
  value,
  onChange,
  placeholder,
  emptyText,
  className,
  disabled,
}: {
  control: ControlProps;
  lookup: Lookup;
  selected: SelectOption | null;
  value: SelectValue | null;
  onChange: (value: SelectValue) => void;
  placeholder?: string;
  emptyText?: string;
  className?: string;
  disabled?: boolean;
}) {
  const [typed, setTyped] = useState("");
  const term = useDebounced(typed.trim(), searchDebounceMs);
  const options = useLookup(lookup, term);
  // The last option picked keeps its label while a later search no longer lists it.
  const [picked, setPicked] = useState<SelectOption | null>(null);
  return (
    <SearchableSelect
      {...control}
      options={options.data ?? []}
      loading={options.isPending}
      value={value}
      onChange={(next) => {
        setPicked(options.data?.find((o) => o.value === next) ?? null);
        onChange(next);
      }}
      onSearchChange={lookup.search ? setTyped : undefined}
      selectedOption={picked && String(picked.value) === String(value) ? picked : selected}
      placeholder={placeholder}
      emptyText={emptyText}
      className={className}
      disabled={disabled}
    />
  );
}
