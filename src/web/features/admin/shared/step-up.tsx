import { type MouseEvent, useEffect, useState } from "react";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { TextField } from "#web/components/ui/text-field.js";
import { ApiError, errorMessage } from "#web/lib/api.js";
import { confirmStepUpPassword, secondFactorFresh, verifySecondFactor } from "./api/second-factor";

/**
 * What the admin confirms with: a code from their authenticator app, or (an admin with no second
 * factor, as ADMIN_2FA=optional allows) their password.
 */
type ConfirmWith = "code" | "password";

interface Asking {
  confirmWith: ConfirmWith;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** The mounted prompt, if any: withStepUp asks it for a code or the password. */
let ask: ((asking: Asking) => void) | null = null;

const cancelled = () => new ApiError(403, "STEP_UP_REQUIRED", "Not confirmed: nothing was changed.", false);

/** Opens the prompt and resolves once the admin confirmed (rejects when they cancel). */
function askToConfirm(confirmWith: ConfirmWith): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!ask) reject(cancelled());
    else ask({ confirmWith, resolve, reject });
  });
}

/** The server's step-up answers, and what each asks for. */
const STEP_UP_CODES: Record<string, ConfirmWith> = {
  STEP_UP_REQUIRED: "code",
  STEP_UP_PASSWORD_REQUIRED: "password",
};

/**
 * Runs an admin action that may need a fresh step-up (a refund, a payment booked by hand, making an
 * admin): when the server answers STEP_UP_REQUIRED (or STEP_UP_PASSWORD_REQUIRED), asks for a code
 * (or the password), then runs it again.
 */
export async function withStepUp<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const confirmWith = error instanceof ApiError && error.code ? STEP_UP_CODES[error.code] : undefined;
    if (!confirmWith) throw error;
    await askToConfirm(confirmWith);
    return run();
  }
}

/** Before a step-up action that is a plain link (the CSV export): asks to confirm first when the last is stale. */
export async function ensureFreshSecondFactor(): Promise<void> {
  const { fresh, confirmWith } = await secondFactorFresh();
  if (!fresh) await askToConfirm(confirmWith);
}

/**
 * onClick of a download link that is a step-up action (a CSV of customers' details): asks for a
 * code first when the last is stale, then follows the link.
 */
export function confirmBeforeDownload(event: MouseEvent<HTMLAnchorElement>): void {
  const link = event.currentTarget;
  if (link.dataset.confirmed === "true") {
    delete link.dataset.confirmed;
    return;
  }
  event.preventDefault();
  ensureFreshSecondFactor()
    .then(() => {
      link.dataset.confirmed = "true";
      link.click();
    })
    .catch(() => {});
}

/** The "Confirm it is you" dialog, mounted once by the admin panel. */
export function StepUpPrompt() {
  const [asking, setAsking] = useState<Asking | null>(null);
  const [code, setCode] = useState("");
  const byPassword = asking?.confirmWith === "password";
  const [error, setError] = useState<string | undefined>();
  const [checking, setChecking] = useState(false);
  useEffect(() => {
    ask = (next) => {
      setCode("");
      setError(undefined);
      setAsking(next);
    };
    return () => {
      ask = null;
    };
  }, []);
  const close = () => {
    asking?.reject(cancelled());
    setAsking(null);
  };
  const submit = async () => {
    setChecking(true);
    try {
      if (byPassword) await confirmStepUpPassword(code);
      else await verifySecondFactor(code.trim());
      asking?.resolve();
      setAsking(null);
    } catch (failure) {
      setError(errorMessage(failure, byPassword ? "That password is not right." : "That code is not right."));
    } finally {
      setChecking(false);
    }
  };
  return (
    <Dialog
      open={asking !== null}
      onOpenChange={(open) => !open && close()}
      title="Confirm it is you"
      description={
        byPassword
          ? "This moves money or customers' data. Enter your password."
          : "This moves money or customers' data. Enter the current code from your authenticator app (or a recovery code)."
      }
    >
      <form
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <TextField
          // A new field for each way of confirming, so the browser offers a saved password only for the password.
          key={byPassword ? "password" : "code"}
          label={byPassword ? "Password" : "Authentication code"}
          type={byPassword ? "password" : "text"}
          required
          autoFocus
          autoComplete={byPassword ? "current-password" : "one-time-code"}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          error={error}
        />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={checking}>
            {checking ? "Checking..." : "Confirm"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
