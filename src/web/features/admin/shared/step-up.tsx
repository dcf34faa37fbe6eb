import { type MouseEvent, useEffect, useState } from "react";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { TextField } from "#web/components/ui/text-field.js";
import { ApiError, errorMessage } from "#web/lib/api.js";
import { secondFactorFresh, verifySecondFactor } from "./api/second-factor";

interface Asking {
  resolve: () => void;
  reject: (error: Error) => void;
}

/** The mounted prompt, if any: withStepUp asks it for a code. */
let ask: ((asking: Asking) => void) | null = null;

const cancelled = () => new ApiError(403, "STEP_UP_REQUIRED", "Not confirmed: no code was given.", false);

/** Opens the prompt and resolves once a right code was given (rejects when the admin cancels). */
function askForCode(): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!ask) reject(cancelled());
    else ask({ resolve, reject });
  });
}

/**
 * Runs an admin action that may need a fresh code (a refund, making an admin): when the server
 * answers STEP_UP_REQUIRED, asks for a code, then runs it again.
 */
export async function withStepUp<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ApiError && error.code === "STEP_UP_REQUIRED")) throw error;
    await askForCode();
    return run();
  }
}

/** Before a step-up action that is a plain link (the CSV export): asks for a code first when the last is stale. */
export async function ensureFreshSecondFactor(): Promise<void> {
  const { fresh } = await secondFactorFresh();
  if (!fresh) await askForCode();
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
      await verifySecondFactor(code.trim());
      asking?.resolve();
      setAsking(null);
    } catch (failure) {
      setError(errorMessage(failure, "That code is not right."));
    } finally {
      setChecking(false);
    }
  };
  return (
    <Dialog
      open={asking !== null}
      onOpenChange={(open) => !open && close()}
      title="Confirm it is you"
      description="This moves money or customers' data. Enter the current code from your authenticator app (or a recovery code)."
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
          label="Authentication code"
          required
          autoFocus
          autoComplete="one-time-code"
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
