import { type ComponentPropsWithRef, useId } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";

export interface TextFieldProps extends ComponentPropsWithRef<"input"> {
  label: string;
  error?: string;
  hint?: string;
}

/** A labelled input with its hint and error tied to it for screen readers. */
export function TextField({ label, error, hint, required, className = "", ...input }: TextFieldProps) {
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
      <input
        id={id}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="mt-1 block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-base text-stone-900 placeholder:text-stone-500 focus-visible:border-brand-700 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-700 aria-[invalid=true]:border-red-600 sm:text-sm"
        {...input}
      />
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

export type ContactField = "phone" | "city" | "address" | "zipCode";

/**
 * Phone, city, address and zip code: the optional delivery details that sign-up and the profile
 * both keep (checkout prefills from them), registered with the form's own `register`.
 */
export function ContactFields({
  register,
  error,
}: {
  register: (field: ContactField) => UseFormRegisterReturn;
  error: (field: ContactField) => string | undefined;
}) {
  return (
    <>
      <TextField label="Phone" type="tel" autoComplete="tel" error={error("phone")} {...register("phone")} />
      <TextField label="City" autoComplete="address-level2" error={error("city")} {...register("city")} />
      <TextField
        label="Address"
        autoComplete="street-address"
        error={error("address")}
        className="sm:col-span-2"
        {...register("address")}
      />
      <TextField
        label="Zip code"
        inputMode="numeric"
        autoComplete="postal-code"
        error={error("zipCode")}
        {...register("zipCode")}
      />
    </>
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
