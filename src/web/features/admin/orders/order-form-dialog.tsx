import type { FormEvent, ReactNode } from "react";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import type { AdminOrder } from "./order-model";

/** What each of the admin's order dialogs is given: the order, and whether it is open. */
export interface OrderDialogProps {
  order: AdminOrder;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The frame of the admin's order dialogs (ship, cancel, refund): a form with its fields, the
 * problem to show if any, and the two buttons. While its request runs nothing closes it and both
 * buttons wait.
 */
export function OrderFormDialog({
  open,
  onOpenChange,
  title,
  description,
  pending,
  problem = null,
  onSubmit,
  dismissLabel = "Cancel",
  submitLabel,
  pendingLabel,
  danger = false,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  pending: boolean;
  problem?: string | null;
  onSubmit: () => void;
  dismissLabel?: string;
  submitLabel: string;
  pendingLabel: string;
  /** The red button, for what gives money or goods back. */
  danger?: boolean;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)} title={title} description={description}>
      {/* The dialogs check their own fields and say what is wrong in the alert below. */}
      <form onSubmit={submit} className="grid gap-4" noValidate>
        {children}
        {problem && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-red-900 ring-1 ring-red-200">
            {problem}
          </p>
        )}
        <div className="mt-1 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {dismissLabel}
          </Button>
          <Button type="submit" variant={danger ? "danger" : undefined} disabled={pending}>
            {pending ? pendingLabel : submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
