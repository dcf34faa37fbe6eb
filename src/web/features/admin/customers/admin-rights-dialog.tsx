import type { Customer } from "#domain/schemas/customers.js";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";

/** Asks before making someone an admin (they see every order and customer) or taking it away. */
export function AdminRightsDialog({
  customer,
  open,
  onOpenChange,
  onConfirm,
  pending,
}: {
  customer: Customer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  pending: boolean;
}) {
  const making = customer.isAdmin !== "true";
  const who = `${customer.fullName} (@${customer.username})`;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={making ? "Make this customer an admin?" : "Remove admin rights?"}
      description={
        making
          ? `${who} will see every order, customer and payment, and can change products, prices and stock.`
          : `${who} will no longer open the admin panel. Their account and orders stay as they are.`
      }
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button variant={making ? "primary" : "danger"} onClick={onConfirm} disabled={pending}>
          {pending ? "Saving..." : making ? "Make admin" : "Remove admin rights"}
        </Button>
      </div>
    </Dialog>
  );
}
