import { useState } from "react";
import { REASON_MAX } from "#domain/limits.js";
import { orderNumber } from "#domain/order-status.js";
import { TextField } from "#web/components/ui/text-field.js";
import { errorMessage } from "#web/lib/api.js";
import { useCancelOrderAsAdmin } from "./api/cancel-order";
import { type OrderDialogProps, OrderFormDialog } from "./order-form-dialog";

/** Cancel an unpaid order, with the reason the shop keeps; what it held goes back on sale. */
export function CancelOrderDialog({ order, open, onOpenChange }: OrderDialogProps) {
  const cancel = useCancelOrderAsAdmin();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
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
    <OrderFormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Cancel order #${orderNumber(order.id)}`}
      description="The order has not been paid. Cancelling it puts the items it holds back on sale."
      pending={cancel.isPending}
      problem={problem}
      onSubmit={submit}
      dismissLabel="Keep the order"
      submitLabel="Cancel order"
      pendingLabel="Cancelling..."
      danger
    >
      <TextField
        label="Reason"
        value={reason}
        maxLength={REASON_MAX}
        autoComplete="off"
        required
        onChange={(event) => setReason(event.target.value)}
      />
    </OrderFormDialog>
  );
}
