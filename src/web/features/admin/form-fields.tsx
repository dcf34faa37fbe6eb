import { Switch } from "radix-ui";
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

/** A labelled on/off switch; the whole row is the tap target. */
export function SwitchRow({
  id,
  label,
  checked,
  onCheckedChange,
  tone = "danger",
}: {
  id: string;
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  tone?: "danger" | "brand";
}) {
  const on = tone === "danger" ? "data-[state=checked]:bg-red-600" : "data-[state=checked]:bg-brand-700";
  return (
    <div className="flex min-h-11 items-center gap-3">
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-stone-500 transition-colors duration-150 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${on}`}
      >
        <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform duration-150 data-[state=checked]:translate-x-[22px]" />
      </Switch.Root>
      <label htmlFor={id} className="cursor-pointer py-2 text-sm text-stone-800">
        {label}
      </label>
    </div>
  );
}
