import { type CalculationMode, calculationModeLabels, calculationModes } from "@trialdesk/domain";
import { Banner } from "../../ui/panel";

/**
 * How the schedule's days count (issue 12): from the first visit or from the previous one. A "From
 * the first visit" plan whose days go down was most likely typed as intervals: warn, never block.
 */
export function CalculationChoice({
  value,
  onChange,
  decreasing,
}: {
  value: CalculationMode;
  onChange: (mode: CalculationMode) => void;
  decreasing: boolean;
}) {
  return (
    <div className="flex flex-col gap-2 border-b border-gray-200 px-4 py-3">
      <fieldset className="flex flex-wrap items-center gap-x-5 gap-y-2">
        <legend className="float-left mr-4 text-sm font-medium text-gray-800">Calculation</legend>
        {calculationModes.map((mode) => (
          <label key={mode} className="inline-flex items-center gap-2 text-sm text-gray-800">
            <input
              type="radio"
              name="calculationMode"
              value={mode}
              checked={value === mode}
              onChange={() => onChange(mode)}
              className="size-4 accent-blue-700"
            />
            {calculationModeLabels[mode]}
          </label>
        ))}
      </fieldset>
      {decreasing && (
        <Banner role="status" tone="warning" className="w-fit">
          The days go down along this plan, but "From the first visit" counts every visit's days from the
          first visit. If they are days from the previous visit, choose "From the previous visit".
        </Banner>
      )}
    </div>
  );
}
