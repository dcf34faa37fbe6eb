import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { PASSWORD_MIN } from "#domain/limits.js";
import { changePasswordInput } from "#domain/schemas/account.js";
import { Button } from "#web/components/ui/button.js";
import { readableMessage, TextField } from "#web/components/ui/text-field.js";
import { useChangePassword } from "./api/change-password";
import { currentPasswordFieldError, passwordFieldError } from "./password-errors";

const changeForm = changePasswordInput
  .extend({ confirmPassword: z.string() })
  .refine((values) => values.newPassword === values.confirmPassword, {
    path: ["confirmPassword"],
    message: "The two new passwords are not the same",
  });
type ChangeFormValues = z.infer<typeof changeForm>;

const LABELS = {
  currentPassword: "Current password",
  newPassword: "New password",
  confirmPassword: "Confirm new password",
};

/** The profile's Change password card: closed until asked for, like the details' Edit Profile. */
export function ChangePasswordSection() {
  const [open, setOpen] = useState(false);
  return (
    <section
      aria-labelledby="password-heading"
      className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="password-heading" className="text-lg font-semibold text-stone-950">
            Password
          </h2>
          {!open && (
            <p className="mt-1 text-sm text-stone-600">
              Changing it logs you out on your other devices; this one stays logged in.
            </p>
          )}
        </div>
        {!open && (
          <Button variant="outline" onClick={() => setOpen(true)}>
            Change password
          </Button>
        )}
      </div>
      {open && <ChangePasswordForm onClose={() => setOpen(false)} />}
    </section>
  );
}

function ChangePasswordForm({ onClose }: { onClose: () => void }) {
  const change = useChangePassword({ onSuccess: onClose });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ChangeFormValues>({
    resolver: zodResolver(changeForm),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });
  const error = (field: keyof typeof LABELS) => readableMessage(errors[field]?.message, LABELS);

  const submit = handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onError: (failure) => {
          const current = currentPasswordFieldError(failure);
          if (current) setError("currentPassword", { message: current }, { shouldFocus: true });
          const common = passwordFieldError(failure);
          if (common) setError("newPassword", { message: common }, { shouldFocus: true });
        },
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate className="mt-5 grid gap-4 sm:grid-cols-2">
      <TextField
        label="Current password"
        type="password"
        required
        autoComplete="current-password"
        autoFocus
        error={error("currentPassword")}
        className="sm:col-span-2"
        {...register("currentPassword")}
      />
      <TextField
        label="New password"
        type="password"
        required
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN} characters, and not a common one`}
        error={error("newPassword")}
        {...register("newPassword")}
      />
      <TextField
        label="Confirm new password"
        type="password"
        required
        autoComplete="new-password"
        error={error("confirmPassword")}
        {...register("confirmPassword")}
      />
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? "Saving..." : "Change password"}
        </Button>
        <Button variant="outline" onClick={onClose} disabled={change.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
