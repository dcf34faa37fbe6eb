import { type FormEvent, useState } from "react";
import { orderNumber } from "../../../domain/order-status";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { TextField } from "../../components/ui/text-field";
import { errorMessage } from "../../lib/api";
import { useCancelOrderAsAdmin } from "./api/cancel-order";
import type { AdminOrder } from "./order-model";

/** Cancel an unpaid order, with the reason the shop keeps; what it held goes back on sale. */
export function CancelOrderDialog({
  order,
  open,
  onOpenChange,
}: {
  order: AdminOrder;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const cancel = useCancelOrderAsAdmin();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setProblem("Say why the order is cancelled.");
    setProblem(null);
    cancel.mutate(
      { id: order.id, reason: reason.trim() },
      {
        onSuccess: () => onOpenChange(false),
        onError: (error) => setProblem(errorMessage(error, "The order could not be cancelled.")),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !cancel.isPending && onOpenChange(next)}
      title={`Cancel order #${orderNumber(order.id)}`}
      description="The order has not been paid. Cancelling it puts the items it holds back on sale."
    >
      <form onSubmit={submit} className="grid gap-4" noValidate>
        <TextField
          label="Reason"
          value={reason}
          maxLength={255}
          autoComplete="off"
          required
          onChange={(event) => setReason(event.target.value)}
        />
        {problem && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-red-900 ring-1 ring-red-200">
            {problem}
          </p>
        )}
        <div className="mt-1 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={cancel.isPending}>
            Keep the order
          </Button>
          <Button type="submit" variant="danger" disabled={cancel.isPending}>
            {cancel.isPending ? "Cancelling..." : "Cancel order"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
