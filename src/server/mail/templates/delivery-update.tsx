import { Section, Text } from "@react-email/components";
import { formatLongDateTime } from "#domain/sa-format.js";
import type { NotifiedState } from "#domain/tracking.js";
import type { DeliveryUpdateData, ShopIdentity } from "../messages.js";
import { FREE_TEXT_LIMITS, greeting, plainText } from "./free-text.js";
import { EmailLayout } from "./layout.js";
import { CallToAction } from "./parts.js";
import { colour, text } from "./theme.js";

const HEADINGS: Record<NotifiedState, string> = {
  out_for_delivery: "Your parcel is out for delivery",
  ready_for_collection: "Your parcel is ready for collection",
  delivered: "Your parcel was delivered",
  failed_attempt: "We could not deliver your parcel",
  not_collected: "Your parcel was not collected",
  lost: "A problem with your parcel",
};

/** One step of an order's parcel (delivery/tracking.ts): the step, the locker PIN when ready, what happens next after a problem. */
export function DeliveryUpdateEmail({ data, shop }: { data: DeliveryUpdateData; shop: ShopIdentity }) {
  const option = plainText(data.option, FREE_TEXT_LIMITS.line);
  const preview =
    data.step === "ready_for_collection" && data.pin
      ? `Order #${data.orderNumber} is waiting for you. Your collection PIN is inside.`
      : `Order #${data.orderNumber}: ${HEADINGS[data.step].toLowerCase()}.`;
  return (
    <EmailLayout shop={shop} preview={preview} heading={HEADINGS[data.step]}>
      <Text style={text}>{greeting(data.customerName, data.greetByName)}</Text>
      <Text style={text}>
        Order #{data.orderNumber} ({option}), waybill {data.waybillNumber}: {HEADINGS[data.step].toLowerCase()} on{" "}
        {formatLongDateTime(data.at)}.
      </Text>
      {data.pin && (
        <Section
          style={{ margin: "0 0 16px", padding: "12px 16px", backgroundColor: colour.brandTint, borderRadius: "8px" }}
        >
          <Text style={{ ...text, margin: 0 }}>
            Collection PIN: <strong>{data.pin}</strong>
          </Text>
        </Section>
      )}
      {data.nextStep && <Text style={text}>{data.nextStep}</Text>}
      <CallToAction href={data.trackingUrl} label="Follow your parcel" />
    </EmailLayout>
  );
}
