import { useState } from "react";
import { COURIER_NAMES } from "#domain/couriers.js";
import { orderNumber } from "#domain/order-status.js";
import { SelectField, TextField } from "#web/components/ui/text-field.js";
import { useUpdateOrderStatus } from "./api/update-order-status";
import { type OrderDialogProps, OrderFormDialog } from "./order-form-dialog";

const OTHER = "Other";
/** The server's limit on both fields (domain/schemas/orders.ts orderStatusInput). */
const MAX_LENGTH = 60;

/**
 * Mark as Shipped: asks, optionally, who carries the parcel (a known courier or another one by
 * name) and its tracking number. The customer's shipped e-mail and order history show them, with
 * a tracking link for a known courier.
 */
export function ShipOrderDialog({ order, open, onOpenChange }: OrderDialogProps) {
  const update = useUpdateOrderStatus();
  const [choice, setChoice] = useState("");
  const [otherCourier, setOtherCourier] = useState("");
  const [trackingNumber, setTrackingNumber] = useState("");

  const submit = () => {
    const courier = (choice === OTHER ? otherCourier : choice).trim() || null;
    update.mutate(
      { id: order.id, status: "processed", courier, trackingNumber: trackingNumber.trim() || null },
      { onSuccess: () => onOpenChange(false) },
    );
  };

  return (
    <OrderFormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Ship order #${orderNumber(order.id)}`}
      description="Add the courier and tracking number if you have them: the customer gets them in the shipping e-mail and in their order history."
      pending={update.isPending}
      onSubmit={submit}
      submitLabel="Mark as Shipped"
      pendingLabel="Saving..."
    >
      <SelectField
        label="Courier (optional)"
        placeholder="No courier given"
        options={[...COURIER_NAMES, OTHER]}
        value={choice}
        onChange={(event) => setChoice(event.target.value)}
      />
      {choice === OTHER && (
        <TextField
          label="Courier name"
          value={otherCourier}
          maxLength={MAX_LENGTH}
          autoComplete="off"
          hint="Shown without a tracking link."
          onChange={(event) => setOtherCourier(event.target.value)}
        />
      )}
      <TextField
        label="Tracking number (optional)"
        value={trackingNumber}
        maxLength={MAX_LENGTH}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setTrackingNumber(event.target.value)}
      />
    </OrderFormDialog>
  );
}
