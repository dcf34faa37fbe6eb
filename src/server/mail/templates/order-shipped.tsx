import { Hr, Section, Text } from "@react-email/components";
import type { OrderShippedData, ShopIdentity } from "../messages.js";
import { FREE_TEXT_LIMITS, greeting, plainText } from "./free-text.js";
import { EmailLayout } from "./layout.js";
import { CallToAction, DeliveryAddress, NoWrap, OrderLines, SectionHeading } from "./parts.js";
import { colour, text } from "./theme.js";

export function OrderShippedEmail({ data, shop }: { data: OrderShippedData; shop: ShopIdentity }) {
  const courier = data.courier ? ` with ${plainText(data.courier, FREE_TEXT_LIMITS.name)}` : "";
  return (
    <EmailLayout
      shop={shop}
      preview={`Order #${data.orderNumber} is with the courier and should reach you in 2-5 business days.`}
      heading="Your order is on its way"
    >
      <Text style={text}>{greeting(data.customerName, data.greetByName)}</Text>
      <Text style={text}>
        Order #{data.orderNumber} has left us{courier} and should reach you in <NoWrap>2-5 business days</NoWrap>.
      </Text>
      {(data.courier || data.trackingNumber) && (
        <Section
          style={{ margin: "0 0 16px", padding: "12px 16px", backgroundColor: colour.brandTint, borderRadius: "8px" }}
        >
          {data.courier && (
            <Text style={{ ...text, margin: 0 }}>Courier: {plainText(data.courier, FREE_TEXT_LIMITS.name)}</Text>
          )}
          {data.trackingNumber && (
            <Text style={{ ...text, margin: 0 }}>
              Tracking number: <strong>{plainText(data.trackingNumber, FREE_TEXT_LIMITS.name)}</strong>
            </Text>
          )}
        </Section>
      )}
      {data.trackingUrl && <CallToAction href={data.trackingUrl} label="Track your parcel" />}
      <SectionHeading>{`Order #${data.orderNumber}`}</SectionHeading>
      <OrderLines lines={data.lines} priced={false} />
      <Hr style={{ margin: "4px 0 20px", borderColor: colour.border }} />
      <DeliveryAddress delivery={data.delivery} />
      <CallToAction href={`${shop.publicUrl}/profile`} label="View your order" secondary={Boolean(data.trackingUrl)} />
    </EmailLayout>
  );
}
