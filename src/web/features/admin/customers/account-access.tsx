import { useState } from "react";
import { DISABLE_REASON_MAX } from "#domain/limits.js";
import type { Customer } from "#domain/schemas/customers.js";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { inputClass } from "../shared";
import { useSetAccountDisabled } from "./api/set-account-disabled";

/** Disable or enable a customer's account from their page, after a confirmation that says what happens. */
export function AccountAccess({ customer }: { customer: Customer }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const change = useSetAccountDisabled();
  const disabling = !customer.disabled;
  const who = `${customer.fullName} (@${customer.username})`;
  const confirm = () =>
    change.mutate(
      { id: customer.id, disabled: disabling, ...(reason.trim() ? { reason: reason.trim() } : {}) },
      { onSettled: () => setOpen(false) },
    );
  return (
    <>
      <Button variant={disabling ? "danger-outline" : "outline"} onClick={() => setOpen(true)}>
        {disabling ? "Disable account" : "Enable account"}
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={disabling ? "Disable this account?" : "Enable this account?"}
        description={
          disabling
            ? `${who} is signed out everywhere and cannot log in. Their unpaid orders are cancelled and the packs they hold go back on sale. Paid orders stay as they are.`
            : `${who} can log in again.`
        }
      >
        {disabling && (
          <label className="mb-4 grid gap-1 text-sm font-medium text-stone-800">
            Reason (kept in the activity log)
            <input
              className={inputClass}
              maxLength={DISABLE_REASON_MAX}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          </label>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button variant={disabling ? "danger" : "primary"} onClick={confirm} disabled={change.isPending}>
            {change.isPending ? "Saving..." : disabling ? "Disable account" : "Enable account"}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
