import { textInputMaxLength } from "@trialdesk/domain";
import { forwardRef, type InputHTMLAttributes } from "react";

/** The text input: at most 50 characters unless told otherwise (spec §2.3, §5). */
export const Input = forwardRef<
  HTMLInputElement,
  InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean }
>(function Input({ className = "", invalid, maxLength = textInputMaxLength, ...props }, ref) {
  return (
    <input
      ref={ref}
      maxLength={maxLength}
      aria-invalid={invalid || undefined}
      className={`block w-full rounded-md border px-2.5 py-1.5 text-sm shadow-sm focus:outline-2 focus:outline-blue-600 disabled:bg-gray-100 ${invalid ? "border-red-600" : "border-gray-300"} ${className}`}
      {...props}
    />
  );
});
