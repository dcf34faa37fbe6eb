import { Section, Text } from "@react-email/components";
import { formatRand } from "#domain/money.js";
import { formatLongDateTime } from "#domain/sa-format.js";
import type { OrderRefundedData, ShopIdentity } from "../messages.js";
import { FREE_TEXT_LIMITS, greeting, plainText } from "./free-text.js";
import { EmailLayout } from "./layout.js";
import { CallToAction, NoWrap, SectionHeading } from "./parts.js";
import { colour, tabular, text } from "./theme.js";

export function OrderRefundedEmail({ data, shop }: { data: OrderRefundedData; shop: ShopIdentity }) {
  const full = data.refundedCents >= data.totalCents;
  const amount = formatRand(data.amountCents);
  return (
    <EmailLayout
      shop={shop}
      preview={`We have refunded ${amount} for order #${data.orderNumber} through PayFast.`}
      heading={full ? "Your order has been refunded" : "Part of your order has been refunded"}
    >
      <Text style={text}>{greeting(data.customerName, data.greetByName)}</Text>
      <Text style={text}>
        We have refunded <strong style={tabular}>{amount}</strong> for order #{data.orderNumber} through PayFast, to the
        card or account you paid with. Depending on your bank it can take <NoWrap>5-10 business days</NoWrap> to show on
        your statement.
      </Text>
      <Section
        style={{ margin: "0 0 16px", padding: "12px 16px", backgroundColor: colour.brandTint, borderRadius: "8px" }}
      >
        <SectionHeading>{`Credit note ${data.creditNoteNumber}`}</SectionHeading>
        <Text style={{ ...text, margin: 0 }}>Reason: {plainText(data.reason, FREE_TEXT_LIMITS.reason)}</Text>
        <Text style={{ ...text, margin: 0 }}>Refunded on {formatLongDateTime(data.refundedAt)}</Text>
        <Text style={{ ...text, margin: 0 }}>
          Refunded so far: <span style={tabular}>{formatRand(data.refundedCents)}</span> of{" "}
          <span style={tabular}>{formatRand(data.totalCents)}</span> paid
        </Text>
      </Section>
      <CallToAction
        href={`${shop.publicUrl}/api/orders/${data.orderId}/refunds/${data.refundId}/credit-note.pdf`}
        label="Download the credit note (PDF)"
      />
      <CallToAction href={`${shop.publicUrl}/profile`} label="View your order" secondary />
    </EmailLayout>
  );
}
