import { BoxesSection } from "./boxes-section";
import { DeliveryCostsSection } from "./delivery-costs-section";

/** The admin's Delivery tab: the owner's boxes, and the monthly delivery-cost report. Loaded when first opened. */
export default function DeliveryTab() {
  return (
    <div className="grid gap-8">
      <BoxesSection />
      <DeliveryCostsSection />
    </div>
  );
}
