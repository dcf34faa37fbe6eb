import { Link, Section, Text } from "@react-email/components";
import { formatLongDateTime } from "#domain/sa-format.js";
import type { OrderConfirmationData, ShopIdentity } from "../messages.js";
import { greeting } from "./free-text.js";
import { EmailLayout } from "./layout.js";
import { CallToAction, DeliveryAddress, NoWrap, OrderLines, SectionHeading, Totals } from "./parts.js";
import { link, small, text } from "./theme.js";

export function OrderConfirmationEmail({ data, shop }: { data: OrderConfirmationData; shop: ShopIdentity }) {
  return (
    <EmailLayout
      shop={shop}
      preview={`We have your payment for order #${data.orderNumber} and are packing it now.`}
      heading="Thank you, your order is confirmed"
    >
      <Text style={text}>{greeting(data.customerName, data.greetByName)}</Text>
      <Text style={text}>
        We have received your payment and are getting your order ready. We will let you know when it is with the
        courier; delivery takes <NoWrap>2-5 business days</NoWrap>.
      </Text>
      <Section style={{ margin: "0 0 8px" }}>
        <SectionHeading>{`Order #${data.orderNumber}`}</SectionHeading>
        <Text style={{ ...text, margin: 0, fontSize: "14px", lineHeight: "20px" }}>
          Paid on {formatLongDateTime(data.paidAt)}
        </Text>
      </Section>
      <OrderLines lines={data.lines} priced />
      <Totals
        subtotalCents={data.subtotalCents}
        multibuyDiscountCents={data.multibuyDiscountCents}
        promo={data.promo}
        deliveryFeeCents={data.deliveryFeeCents}
        totalCents={data.totalCents}
        vatCents={data.vatCents}
        vatByRate={data.vatByRate}
        vatRegistered={shop.vatRegistered}
      />
      <DeliveryAddress delivery={data.delivery} />
      <CallToAction href={`${shop.publicUrl}/profile`} label="View your order" />
      <CallToAction
        href={`${shop.publicUrl}/api/orders/${data.orderId}/invoice.pdf`}
        label="Download your invoice (PDF)"
        secondary
      />
      {data.policies && data.policies.length > 0 && (
        <Section style={{ margin: "8px 0 0" }}>
          <SectionHeading>Your agreement</SectionHeading>
          <Text style={{ ...small, margin: "0 0 8px" }}>
            You placed this order under these versions of our policies. Each stays readable at its address, so you can
            save or print it.
          </Text>
          {data.policies.map((policy) => (
            <Text key={policy.path} style={{ ...small, margin: "0 0 4px" }}>
              <Link href={`${shop.publicUrl}${policy.path}`} style={link}>
                {policy.label}
              </Link>
            </Text>
          ))}
        </Section>
      )}
    </EmailLayout>
  );
}
