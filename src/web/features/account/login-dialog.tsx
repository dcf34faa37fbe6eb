import { zodResolver } from "@hookform/resolvers/zod";
import { Tabs } from "radix-ui";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { marketingConsentWords, SIGN_UP_COLLECTION_NOTICE } from "#domain/consent.js";
import { PASSWORD_MIN } from "#domain/limits.js";
import { type LoginInput, loginInput, type RegisterInput, registerInput } from "#domain/schemas/account.js";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { PausedNotice } from "#web/components/ui/paused-notice.js";
import { readableMessage, TextField } from "#web/components/ui/text-field.js";
import { publicConfig } from "#web/lib/public-config.js";
import { isShopPaused } from "#web/lib/shop-paused.js";
import { useLogIn } from "./api/log-in";
import { useRegister } from "./api/register";
import { ForgotPasswordForm } from "./forgot-password-form";
import { ContactFields, PersonFields } from "./form-field";
import { passwordFieldError } from "./password-errors";
import { useSession } from "./session";

type AccountTab = "login" | "signup";

const LOGIN_LABELS = { username: "Username or email", password: "Password" };
const SIGN_UP_LABELS = {
  username: "Username",
  fullName: "Full name",
  email: "Email",
  password: "Password",
  phone: "Phone",
  address: "Address",
  city: "City",
  zipCode: "Zip code",
};

const tabTriggerClass =
  "min-h-11 rounded-md px-3 text-sm font-semibold text-stone-700 transition-colors duration-150 hover:text-stone-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow-sm";

/** The Account Required dialog (docs/product.md §2 and §5): Login and Sign Up tabs. */
export default function LoginDialog() {
  const { loginOpen, setLoginOpen } = useSession();
  const [tab, setTab] = useState<AccountTab>("login");
  const [newUsername, setNewUsername] = useState("");
  // "Forgot password?" swaps the login form for the reset-link form, holding what was typed as the address.
  const [forgotEmail, setForgotEmail] = useState<string | null>(null);

  return (
    <Dialog
      open={loginOpen}
      onOpenChange={(open) => {
        setLoginOpen(open);
        if (!open) setForgotEmail(null);
      }}
      title="Account Required"
      description="Please log in or create an account to add items to your cart"
    >
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as AccountTab)}>
        <Tabs.List aria-label="Log in or sign up" className="grid grid-cols-2 gap-1 rounded-lg bg-stone-100 p-1">
          <Tabs.Trigger value="login" className={tabTriggerClass}>
            Login
          </Tabs.Trigger>
          <Tabs.Trigger value="signup" className={tabTriggerClass}>
            Sign Up
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="login" className="pt-5 focus-visible:outline-none">
          {forgotEmail === null ? (
            <LoginForm
              key={newUsername}
              username={newUsername}
              onDone={() => setLoginOpen(false)}
              onForgot={(typed) => setForgotEmail(typed.includes("@") ? typed.trim() : "")}
            />
          ) : (
            <section aria-labelledby="forgot-heading" className="grid gap-3">
              <h3 id="forgot-heading" className="text-base font-semibold text-stone-950">
                Reset your password
              </h3>
              <ForgotPasswordForm defaultEmail={forgotEmail} onBack={() => setForgotEmail(null)} />
            </section>
          )}
        </Tabs.Content>
        <Tabs.Content value="signup" className="pt-5 focus-visible:outline-none">
          <SignUpForm
            onCreated={(username) => {
              setNewUsername(username);
              setTab("login");
            }}
          />
        </Tabs.Content>
      </Tabs.Root>
    </Dialog>
  );
}

function LoginForm({
  username,
  onDone,
  onForgot,
}: {
  username: string;
  onDone: () => void;
  onForgot: (typed: string) => void;
}) {
  const [needsCode, setNeedsCode] = useState(false);
  const logIn = useLogIn({ onSuccess: onDone, onCodeNeeded: () => setNeedsCode(true) });
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm<LoginInput>({
    resolver: zodResolver(loginInput),
    defaultValues: { username, password: "" },
  });

  const submit = handleSubmit((values) => logIn.mutate(values));
  const isSubmitting = logIn.isPending;

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <TextField
        label="Username or email"
        required
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={readableMessage(errors.username?.message, LOGIN_LABELS)}
        {...register("username")}
      />
      <TextField
        label="Password"
        type="password"
        required
        autoComplete="current-password"
        autoFocus={username !== ""}
        error={readableMessage(errors.password?.message, LOGIN_LABELS)}
        {...register("password")}
      />
      {needsCode && (
        <TextField
          label="Authentication code"
          hint="The 6-digit code from your authenticator app, or one of your recovery codes."
          required
          autoComplete="one-time-code"
          inputMode="text"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          {...register("code")}
        />
      )}
      <button
        type="button"
        onClick={() => onForgot(getValues("username"))}
        className="-my-2 min-h-11 justify-self-end rounded px-1 text-sm font-medium text-brand-800 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-700"
      >
        Forgot password?
      </button>
      {isShopPaused(logIn.error) && <PausedNotice action="login" />}
      <Button type="submit" size="lg" disabled={isSubmitting} className="w-full">
        {isSubmitting ? "Logging in..." : "Login"}
      </Button>
    </form>
  );
}

function SignUpForm({ onCreated }: { onCreated: (username: string) => void }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<RegisterInput, unknown, z.output<typeof registerInput>>({
    resolver: zodResolver(registerInput),
    defaultValues: {
      username: "",
      fullName: "",
      email: "",
      password: "",
      phone: "",
      address: "",
      city: "",
      zipCode: "",
      // Opt-in (POPIA s69): never ticked for the customer.
      marketingEmail: false,
    },
  });
  const marketingBoxId = useId();
  const error = (field: keyof typeof SIGN_UP_LABELS) => readableMessage(errors[field]?.message, SIGN_UP_LABELS);

  const signUp = useRegister({
    onSuccess: (user) => {
      reset();
      onCreated(user.username);
    },
  });
  const submit = handleSubmit((values) =>
    signUp.mutate(values, {
      onError: (failure) => {
        const message = passwordFieldError(failure);
        if (message) setError("password", { message }, { shouldFocus: true });
      },
    }),
  );
  const isSubmitting = signUp.isPending;

  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Username"
        required
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        hint="Letters, numbers, dots, dashes and underscores"
        error={error("username")}
        {...register("username")}
      />
      <PersonFields register={register} error={error} emailClassName="sm:col-span-2" />
      <TextField
        label="Password"
        type="password"
        required
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN} characters`}
        error={error("password")}
        className="sm:col-span-2"
        {...register("password")}
      />
      <fieldset className="grid gap-4 border-t border-stone-200 pt-4 sm:col-span-2 sm:grid-cols-2">
        <legend className="float-left w-full text-sm font-semibold text-stone-900 sm:col-span-2">
          Delivery details <span className="font-normal text-stone-600">(optional, saves typing at checkout)</span>
        </legend>
        <ContactFields register={register} error={error} />
      </fieldset>
      <div className="flex items-start gap-3 sm:col-span-2">
        <input
          id={marketingBoxId}
          type="checkbox"
          className="mt-0.5 size-5 shrink-0 accent-brand-700"
          {...register("marketingEmail")}
        />
        <label htmlFor={marketingBoxId} className="text-sm text-stone-800">
          {marketingConsentWords("email", publicConfig.name)}
        </label>
      </div>
      <p className="text-xs text-stone-600 sm:col-span-2">
        {SIGN_UP_COLLECTION_NOTICE}{" "}
        <a href="/privacy" className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900">
          Privacy Policy
        </a>
      </p>
      <Button type="submit" size="lg" disabled={isSubmitting} className="mt-1 w-full sm:col-span-2">
        {isSubmitting ? "Creating account..." : "Create Account"}
      </Button>
    </form>
  );
}
