/**
 * Filter chips, each a toggle button: one pressed at a time, the All chip (null) leaves the filter out.
 * The lists that keep a status in the URL (queries, source verification, earnings, statements) use it.
 */
export function FilterChips<V extends string>({
  legend,
  chips,
  chosen,
  onChoose,
}: {
  legend: string;
  chips: { value: V | null; label: string }[];
  chosen: V | null;
  onChoose: (value: V | null) => void;
}) {
  return (
    <fieldset className="flex flex-wrap gap-2">
      <legend className="sr-only">{legend}</legend>
      {chips.map(({ value, label }) => {
        const on = chosen === value;
        return (
          <button
            key={label}
            type="button"
            aria-pressed={on}
            onClick={() => onChoose(value)}
            className={`inline-flex items-center rounded-full border px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 ${
              on
                ? "border-blue-700 bg-blue-700 text-white"
                : "border-gray-300 bg-white text-gray-800 hover:bg-gray-50"
            }`}
          >
            {label}
          </button>
        );
      })}
    </fieldset>
  );
}
