import type { ReactNode } from "react";

/** The shared schemas' messages start with the field's name ("price must be..."): shown as a sentence. */
export function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** A labelled field with its hint and error, wired up with aria-describedby by id. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-sm font-semibold text-stone-800">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-stone-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {sentence(error)}
        </p>
      )}
    </div>
  );
}

/** The aria attributes of the input of a Field with the same id. */
export function describedBy(id: string, { hasHint = false, error }: { hasHint?: boolean; error?: string }) {
  const ids = [hasHint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return { id, "aria-invalid": error ? true : undefined, "aria-describedby": ids || undefined } as const;
}
