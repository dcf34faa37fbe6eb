import { useState } from "react";
import { formatDate } from "#domain/sa-format.js";
import type { TwoFactorSetup } from "#domain/schemas/two-factor.js";
import { Button } from "#web/components/ui/button.js";
import { TextField } from "#web/components/ui/text-field.js";
import { errorMessage } from "#web/lib/api.js";
import { useDisableTwoFactor, useEnableTwoFactor, useStartTwoFactor, useTwoFactorStatus } from "./api/two-factor";

const cardClass = "rounded-2xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6";

/**
 * An admin's "Two-step sign-in" card on the profile: set up with a QR code and a first code, the
 * ten recovery codes shown once, or turned off with a code. Its own card, beside the password's.
 */
export function TwoFactorSection() {
  const status = useTwoFactorStatus();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  return (
    <section aria-labelledby="two-factor-heading" className={cardClass}>
      <h2 id="two-factor-heading" className="text-lg font-semibold text-stone-950">
        Two-step sign-in
      </h2>
      {status.isPending ? (
        <p className="mt-1 text-sm text-stone-600">Loading...</p>
      ) : status.isError ? (
        <p className="mt-1 text-sm text-red-800">Could not load your two-step sign-in. Reload the page to try again.</p>
      ) : recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
      ) : status.data.enabled ? (
        <TurnOff enabledAt={status.data.enabledAt} left={status.data.recoveryCodesLeft} />
      ) : (
        <SetUp required={status.data.required} onEnabled={setRecoveryCodes} />
      )}
    </section>
  );
}

function SetUp({ required, onEnabled }: { required: boolean; onEnabled: (codes: string[]) => void }) {
  const start = useStartTwoFactor();
  const enable = useEnableTwoFactor();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [code, setCode] = useState("");
  if (!setup) {
    return (
      <>
        <p className="mt-1 text-sm text-stone-600">
          Your admin account can refund orders and see every customer. With two-step sign-in, logging in also needs a
          code from an authenticator app on your phone.
          {required && " This shop requires it before the admin panel opens."}
        </p>
        {start.isError && <p className="mt-3 text-sm text-red-800">{errorMessage(start.error, "Please try again.")}</p>}
        <Button
          className="mt-4"
          disabled={start.isPending}
          onClick={() => start.mutate(undefined, { onSuccess: setSetup })}
        >
          {start.isPending ? "Starting..." : "Set up two-step sign-in"}
        </Button>
      </>
    );
  }
  return (
    <form
      className="mt-3 grid gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        enable.mutate(code.trim(), { onSuccess: (answer) => onEnabled(answer.recoveryCodes) });
      }}
    >
      <ol className="grid list-decimal gap-2 pl-5 text-sm text-stone-700">
        <li>Open an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password...).</li>
        <li>Scan this QR code, or type the key below it.</li>
        <li>Type the 6-digit code the app shows.</li>
      </ol>
      <div className="grid justify-items-start gap-2 sm:grid-cols-[auto_minmax(0,1fr)] sm:items-center sm:gap-4">
        <img
          src={setup.qrCode}
          alt="QR code for your authenticator app"
          width={176}
          height={176}
          className="rounded-lg border border-stone-200 bg-white p-1"
        />
        <p className="min-w-0 text-sm text-stone-700">
          Key:{" "}
          <code data-testid="totp-secret" className="font-mono text-sm break-all text-stone-950">
            {setup.secret}
          </code>
        </p>
      </div>
      <TextField
        label="6-digit code"
        required
        autoComplete="one-time-code"
        inputMode="numeric"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={enable.isError ? errorMessage(enable.error, "That code is not right.") : undefined}
      />
      <Button type="submit" disabled={enable.isPending} className="justify-self-start">
        {enable.isPending ? "Checking..." : "Turn on two-step sign-in"}
      </Button>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="mt-2 grid gap-3">
      <p role="status" className="rounded-lg bg-brand-50 px-3 py-2 text-sm font-semibold text-brand-900">
        Two-step sign-in is on.
      </p>
      <p className="text-sm text-stone-700">
        Keep these recovery codes somewhere safe, away from your phone. Each works once, in place of a code, if you lose
        your phone. They are shown only now.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-5">
        {codes.map((code) => (
          <li key={code} className="rounded bg-stone-100 px-2 py-1 text-center text-stone-900">
            {code}
          </li>
        ))}
      </ul>
      <Button variant="outline" onClick={onDone} className="justify-self-start">
        I have saved them
      </Button>
    </div>
  );
}

function TurnOff({ enabledAt, left }: { enabledAt: string | null; left: number }) {
  const disable = useDisableTwoFactor();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState("");
  return (
    <>
      <p className="mt-1 text-sm text-stone-600">
        On{enabledAt ? ` since ${formatDate(enabledAt)}` : ""}. Logging in asks for a code from your authenticator app.{" "}
        {left} of 10 recovery codes left.
      </p>
      {open ? (
        <form
          className="mt-3 grid gap-3"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            disable.mutate(code.trim(), { onSuccess: () => setOpen(false) });
          }}
        >
          <TextField
            label="Code to confirm"
            hint="A code from your authenticator app, or a recovery code."
            required
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={disable.isError ? errorMessage(disable.error, "That code is not right.") : undefined}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger" disabled={disable.isPending}>
              {disable.isPending ? "Turning off..." : "Turn off two-step sign-in"}
            </Button>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button variant="danger-outline" className="mt-4" onClick={() => setOpen(true)}>
          Turn off
        </Button>
      )}
    </>
  );
}
