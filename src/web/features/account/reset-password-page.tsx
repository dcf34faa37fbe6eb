import { zodResolver } from "@hookform/resolvers/zod";
import type { ReactNode } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearch } from "wouter";
import { z } from "zod";
import { PASSWORD_MIN } from "#domain/limits.js";
import { resetPasswordInput } from "#domain/schemas/account.js";
import { Button, buttonClass } from "#web/components/ui/button.js";
import { readableMessage, TextField } from "#web/components/ui/text-field.js";
import { ApiError, errorMessage } from "#web/lib/api.js";
import { usePageTitle } from "#web/lib/use-page-title.js";
import { useResetPassword } from "./api/reset-password";
import { ForgotPasswordForm } from "./forgot-password-form";
import { passwordFieldError } from "./password-errors";
import { useSession } from "./session";

const resetForm = z
  .object({ password: resetPasswordInput.shape.password, confirmPassword: z.string() })
  .refine((values) => values.password === values.confirmPassword, {
    path: ["confirmPassword"],
    message: "The two passwords are not the same",
  });
type ResetFormValues = z.infer<typeof resetForm>;

const LABELS = { password: "New password", confirmPassword: "Confirm new password" };

/** /reset-password?token=...: the page the e-mailed reset link opens. */
export default function ResetPasswordPage() {
  usePageTitle("Choose a new password");
  const token = new URLSearchParams(useSearch()).get("token")?.trim() ?? "";
  const reset = useResetPassword();

  if (reset.isSuccess) return <PasswordChanged />;
  const deadLink =
    reset.error instanceof ApiError && reset.error.code === "RESET_LINK_INVALID" ? reset.error.message : null;
  if (!token || deadLink) {
    return (
      <Card title="This link no longer works">
        <p role="alert" className="text-stone-700">
          {deadLink ?? "This reset link is not complete. Ask for a new one."}
        </p>
        <h2 className="mt-6 text-base font-semibold text-stone-950">Ask for a new link</h2>
        <div className="mt-3">
          <ForgotPasswordForm />
        </div>
      </Card>
    );
  }
  return (
    <Card title="Choose a new password">
      <ResetForm token={token} reset={reset} />
    </Card>
  );
}

function ResetForm({ token, reset }: { token: string; reset: ReturnType<typeof useResetPassword> }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetFormValues>({
    resolver: zodResolver(resetForm),
    defaultValues: { password: "", confirmPassword: "" },
  });
  const submit = handleSubmit(({ password }) =>
    reset.mutate(
      { token, password },
      {
        onError: (failure) => {
          const message = passwordFieldError(failure);
          if (message) setError("password", { message }, { shouldFocus: true });
        },
      },
    ),
  );
  // Field-level refusals show beside their field; anything else (a busy shop, no network) here.
  const otherFailure =
    reset.isError && !passwordFieldError(reset.error)
      ? errorMessage(reset.error, "We could not change your password. Please try again.")
      : null;

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <p className="text-stone-700">Choose a password you do not use on any other site.</p>
      <TextField
        label="New password"
        type="password"
        required
        autoComplete="new-password"
        autoFocus
        hint={`At least ${PASSWORD_MIN} characters, and not a common one`}
        error={readableMessage(errors.password?.message, LABELS)}
        {...register("password")}
      />
      <TextField
        label="Confirm new password"
        type="password"
        required
        autoComplete="new-password"
        error={readableMessage(errors.confirmPassword?.message, LABELS)}
        {...register("confirmPassword")}
      />
      {otherFailure && (
        <p role="alert" className="text-sm text-red-700">
          {otherFailure}
        </p>
      )}
      <Button type="submit" size="lg" disabled={reset.isPending} className="mt-1 w-full">
        {reset.isPending ? "Saving..." : "Save new password"}
      </Button>
    </form>
  );
}

function PasswordChanged() {
  const { setLoginOpen } = useSession();
  return (
    <Card title="Password changed">
      <p role="status" className="text-stone-700">
        Your password was changed. Log in with your new password.
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <Button size="lg" onClick={() => setLoginOpen(true)}>
          Log in
        </Button>
        <Link href="/" className={buttonClass({ variant: "outline", size: "lg" })}>
          Continue shopping
        </Link>
      </div>
    </Card>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-10 sm:py-16">
      <div className="rounded-3xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-balance text-stone-950">{title}</h1>
        <div className="mt-4">{children}</div>
      </div>
    </div>
  );
}
