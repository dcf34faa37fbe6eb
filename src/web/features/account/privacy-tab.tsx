import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useId, useState } from "react";
import { useForm } from "react-hook-form";
import { useLocation } from "wouter";
import { AD_CONSENT_NOTICE, marketingConsentWords } from "#domain/consent.js";
import { DATA_EXPORTS_PER_DAY } from "#domain/limits.js";
import { formatDate } from "#domain/sa-format.js";
import { type PasswordConfirmInput, passwordConfirmInput } from "#domain/schemas/privacy.js";
import { Button } from "#web/components/ui/button.js";
import { readableMessage, TextField } from "#web/components/ui/text-field.js";
import { type AdConsent, readAdConsent, writeAdConsent } from "#web/lib/ad-consent.js";
import { publicConfig } from "#web/lib/public-config.js";
import { useCloseAccount } from "./api/close-account";
import { useDownloadMyData } from "./api/download-my-data";
import { useMarketingConsents, useUpdateMarketingConsent } from "./api/marketing-consents";
import { currentPasswordFieldError } from "./password-errors";

const cardClass = "rounded-2xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6";

/** The profile's Privacy tab (POPIA): marketing consent, download my data, close my account. */
export function PrivacyTab() {
  return (
    <div className="grid gap-6">
      <MarketingSection />
      {publicConfig.adConversionId && <AdMeasurementSection />}
      <DownloadSection />
      <CloseSection />
      <p className="text-sm text-stone-600">
        How we use your details, who receives them and your rights:{" "}
        <a href="/privacy" className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900">
          Privacy Policy
        </a>
        .
      </p>
    </div>
  );
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={cardClass}>
      <h2 id={id} className="text-lg font-semibold text-stone-950">
        {title}
      </h2>
      {children}
    </section>
  );
}

function MarketingSection() {
  const { data, isPending, isError } = useMarketingConsents();
  const update = useUpdateMarketingConsent();
  const boxId = useId();
  const email = data?.consents.find((consent) => consent.channel === "email");
  const granted = update.isPending ? (update.variables?.granted ?? false) : (email?.granted ?? false);
  return (
    <Card id="marketing-heading" title="News and offers">
      <p className="mt-1 text-sm text-stone-600">
        Only if you want them. Order e-mails and the alerts you ask for come either way.
      </p>
      {isError ? (
        <p className="mt-4 text-sm text-red-700">We could not load your choice. Please reload the page.</p>
      ) : (
        <div className="mt-4 flex items-start gap-3">
          <input
            id={boxId}
            type="checkbox"
            className="mt-0.5 size-5 shrink-0 accent-brand-700"
            checked={granted}
            disabled={isPending || update.isPending}
            onChange={(event) => update.mutate({ channel: "email", granted: event.target.checked })}
          />
          <label htmlFor={boxId} className="text-sm text-stone-800">
            {marketingConsentWords("email", publicConfig.name)}
          </label>
        </div>
      )}
      {email?.changedAt && (
        <p className="mt-2 text-xs text-stone-600">
          {email.granted ? "Agreed" : "Stopped"} on {formatDate(email.changedAt)}.
        </p>
      )}
    </Card>
  );
}

/** Where a shopper changes their answer to the ad-measurement notice, whenever they like. */
function AdMeasurementSection() {
  const [consent, setConsent] = useState<AdConsent | null>(() => readAdConsent());
  const choose = (next: AdConsent) => {
    writeAdConsent(next);
    setConsent(next);
  };
  return (
    <Card id="ad-measurement-heading" title={`${AD_CONSENT_NOTICE.title} in this browser`}>
      <p className="mt-1 text-sm text-stone-600">{AD_CONSENT_NOTICE.text}</p>
      <p className="mt-3 text-sm font-medium text-stone-900" aria-live="polite">
        {consent === "granted" ? "You allowed it in this browser." : "Not allowed in this browser."}
      </p>
      <Button variant="outline" className="mt-3" onClick={() => choose(consent === "granted" ? "denied" : "granted")}>
        {consent === "granted" ? "Stop ad measurement" : "Allow ad measurement"}
      </Button>
    </Card>
  );
}

const PASSWORD_LABELS = { password: "Password" };

/** A password field and a submit button: how both "Download my data" and "Close my account" ask. */
function PasswordForm({
  submitLabel,
  pendingLabel,
  variant,
  pending,
  onSubmit,
  onCancel,
}: {
  submitLabel: string;
  pendingLabel: string;
  variant: "primary" | "danger";
  pending: boolean;
  onSubmit: (values: PasswordConfirmInput, setFieldError: (message: string) => void) => void;
  onCancel: () => void;
}) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<PasswordConfirmInput>({ resolver: zodResolver(passwordConfirmInput), defaultValues: { password: "" } });
  const submit = handleSubmit((values) =>
    onSubmit(values, (message) => setError("password", { message }, { shouldFocus: true })),
  );
  return (
    <form onSubmit={submit} noValidate className="mt-4 grid gap-4 sm:max-w-sm">
      <TextField
        label="Password"
        type="password"
        required
        autoComplete="current-password"
        autoFocus
        error={readableMessage(errors.password?.message, PASSWORD_LABELS)}
        {...register("password")}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant={variant} disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function DownloadSection() {
  const [open, setOpen] = useState(false);
  const download = useDownloadMyData({ onSuccess: () => setOpen(false) });
  return (
    <Card id="download-heading" title="Download my data">
      <p className="mt-1 text-sm text-stone-600">
        One file (JSON) with your account, your orders, the e-mails we sent you, your choices about news and offers and
        where you are logged in. Up to {DATA_EXPORTS_PER_DAY} times a day.
      </p>
      {open ? (
        <PasswordForm
          submitLabel="Download"
          pendingLabel="Preparing..."
          variant="primary"
          pending={download.isPending}
          onCancel={() => setOpen(false)}
          onSubmit={(values, setFieldError) =>
            download.mutate(values, {
              onError: (error) => {
                const message = currentPasswordFieldError(error);
                if (message) setFieldError(message);
              },
            })
          }
        />
      ) : (
        <Button variant="outline" className="mt-4" onClick={() => setOpen(true)}>
          Download my data
        </Button>
      )}
    </Card>
  );
}

function CloseSection() {
  const [open, setOpen] = useState(false);
  const [, navigate] = useLocation();
  const close = useCloseAccount({ onClosed: () => navigate("/") });
  return (
    <Card id="close-heading" title="Close my account">
      <div className="mt-1 grid gap-2 text-sm text-stone-600">
        <p>
          Your name, e-mail, phone and address are removed at once and you are logged out everywhere. You cannot undo
          this, but you may sign up again with the same e-mail.
        </p>
        <p>
          Your orders and invoices are kept for five years, as tax law requires, and then anonymised. Download your data
          first if you want a copy.
        </p>
      </div>
      {open ? (
        <PasswordForm
          submitLabel="Close my account for good"
          pendingLabel="Closing..."
          variant="danger"
          pending={close.isPending}
          onCancel={() => setOpen(false)}
          onSubmit={(values, setFieldError) =>
            close.mutate(values, {
              onError: (error) => {
                const message = currentPasswordFieldError(error);
                if (message) setFieldError(message);
              },
            })
          }
        />
      ) : (
        <Button variant="danger-outline" className="mt-4" onClick={() => setOpen(true)}>
          Close my account
        </Button>
      )}
    </Card>
  );
}
