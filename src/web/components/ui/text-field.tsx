import { type ComponentPropsWithRef, type ReactNode, useId } from "react";

const controlClass =
  "mt-1 block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-base text-stone-900 placeholder:text-stone-500 focus-visible:border-brand-700 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-700 aria-[invalid=true]:border-red-600 sm:text-sm";

interface FieldFrameProps {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  required?: boolean | undefined;
  className?: string | undefined;
  /** Renders the control with the id and ARIA wiring the frame made for it. */
  children: (control: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode;
}

/** A label, a control, its hint and its error, tied together for screen readers. */
function FieldFrame({ label, error, hint, required, className = "", children }: FieldFrameProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
        {required && (
          <span className="text-red-700" aria-hidden="true">
            {" "}
            *
          </span>
        )}
      </label>
      {children({
        id,
        ...(error ? { "aria-invalid": true as const } : {}),
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
      })}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-stone-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export interface TextFieldProps extends ComponentPropsWithRef<"input"> {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

/** A labelled input with its hint and error. */
export function TextField({ label, error, hint, required, className, ...input }: TextFieldProps) {
  return (
    <FieldFrame label={label} error={error} hint={hint} required={required} className={className}>
      {(control) => <input required={required} className={controlClass} {...control} {...input} />}
    </FieldFrame>
  );
}

export interface SelectFieldProps extends ComponentPropsWithRef<"select"> {
  label: string;
  error?: string | undefined;
  /** The first, empty choice ("Choose a province"). */
  placeholder: string;
  options: readonly string[];
}

/** A labelled select of plain text options with its error. */
export function SelectField({ label, error, required, className, placeholder, options, ...select }: SelectFieldProps) {
  return (
    <FieldFrame label={label} error={error} required={required} className={className}>
      {(control) => (
        <select required={required} className={controlClass} {...control} {...select}>
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/**
 * The shared schemas speak in field names ("fullName is required"); people read labels
 * ("Full name is required").
 */
export function readableMessage(message: string | undefined, labels: Record<string, string>): string | undefined {
  if (!message) return undefined;
  const [first = "", ...rest] = message.split(" ");
  const label = labels[first];
  return label ? [label, ...rest].join(" ") : message.charAt(0).toUpperCase() + message.slice(1);
}
