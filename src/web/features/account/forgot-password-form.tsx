import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { type ForgotPasswordInput, forgotPasswordInput } from "#domain/schemas/account.js";
import { Button } from "#web/components/ui/button.js";
import { readableMessage, TextField } from "#web/components/ui/text-field.js";
import { errorMessage } from "#web/lib/api.js";
import { useForgotPassword } from "./api/forgot-password";

const LABELS = { email: "Email" };

/**
 * Asks for a reset link: the e-mail address, then the server's answer, which is the same whether
 * or not the address is a customer's. Used by the login dialog and the reset page.
 */
export function ForgotPasswordForm({
  defaultEmail = "",
  onBack,
  backLabel = "Back to login",
}: {
  defaultEmail?: string;
  onBack?: () => void;
  backLabel?: string;
}) {
  const send = useForgotPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ForgotPasswordInput>({
    resolver: zodResolver(forgotPasswordInput),
    defaultValues: { email: defaultEmail },
  });

  if (send.isSuccess) {
    return (
      <div className="grid gap-4">
        <p role="status" className="rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-brand-900">
          {send.data.message} If nothing arrives in a few minutes, look in your spam folder.
        </p>
        {onBack && (
          <Button variant="outline" onClick={onBack} className="w-full">
            {backLabel}
          </Button>
        )}
      </div>
    );
  }

  const submit = handleSubmit((values) => send.mutate(values));
  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <p className="text-sm text-stone-700">
        Enter the e-mail address of your account and we will send you a link to choose a new password.
      </p>
      <TextField
        label="Email"
        type="email"
        required
        autoComplete="email"
        autoFocus
        error={readableMessage(errors.email?.message, LABELS)}
        {...register("email")}
      />
      {send.isError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(send.error, "We could not send the link. Please try again.")}
        </p>
      )}
      <Button type="submit" size="lg" disabled={send.isPending} className="w-full">
        {send.isPending ? "Sending..." : "Send reset link"}
      </Button>
      {onBack && (
        <Button variant="ghost" onClick={onBack} className="w-full">
          {backLabel}
        </Button>
      )}
    </form>
  );
}
