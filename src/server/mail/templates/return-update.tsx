import { Section, Text } from "@react-email/components";
import { formatRand } from "#domain/money.js";
import { RETURN_REASON_LABELS } from "#domain/returns.js";
import { formatCalendarDate } from "#domain/sa-format.js";
import type { ReturnUpdateData, ReturnUpdateStep, ShopIdentity } from "../messages.js";
import { greeting } from "./free-text.js";
import { EmailLayout } from "./layout.js";
import { CallToAction, OrderLines, SectionHeading } from "./parts.js";
import { colour, text } from "./theme.js";

const HEADINGS: Record<ReturnUpdateStep, string> = {
  requested: "We have your request",
  accepted: "Your request is accepted",
  declined: "Your request was declined",
  received: "We have received your return",
  refunded: "Your refund is on its way",
  exchanged: "Your exchange is on its way",
  resolved: "Your request is resolved",
  out_of_stock: "We cannot fill your order",
};

function StepText({ data, shop }: { data: ReturnUpdateData; shop: ShopIdentity }) {
  const by = formatCalendarDate(data.deadlineDay);
  const amount = data.amountCents !== null && data.amountCents > 0 ? formatRand(data.amountCents) : null;
  switch (data.step) {
    case "requested":
      return (
        <Text style={text}>
          We have recorded your request {data.reference} about order #{data.orderNumber} (
          {RETURN_REASON_LABELS[data.reason]}
          ). We will reply by e-mail with what happens next, and settle it by {by} at the latest.
          {data.reason === "cancellation" && amount
            ? ` As the order has not shipped, we will refund everything you paid, ${amount}, delivery included.`
            : ""}
        </Text>
      );
    case "accepted":
      return (
        <>
          <Text style={text}>
            We have accepted your request {data.reference}. Please send the goods back to: {shop.address}. Write{" "}
            {data.reference} on the parcel.
          </Text>
          <Text style={text}>
            {data.shopPaysReturn
              ? "We pay for sending back defective or wrong goods: reply to this e-mail and we will arrange the collection, or keep the slip and we will pay you back."
              : "Packs sent back because you changed your mind or chose the wrong size must be sealed and unopened; you pay only the cost of sending them back."}
          </Text>
        </>
      );
    case "declined":
      return (
        <Text style={text}>
          We have declined your request {data.reference}. If you disagree, reply to this e-mail; you may also take the
          matter to the Consumer Goods and Services Ombud (www.cgso.org.za).
        </Text>
      );
    case "received":
      return (
        <Text style={text}>
          The goods of your request {data.reference} have reached us. We will settle it by {by} at the latest.
        </Text>
      );
    case "refunded":
      return (
        <Text style={text}>
          We have refunded {amount ?? "your payment"} for your request {data.reference} through PayFast, to the card or
          account you paid with. A separate e-mail carries the credit note.
        </Text>
      );
    case "exchanged":
      return <Text style={text}>We are sending the replacement for your request {data.reference}.</Text>;
    case "resolved":
      return <Text style={text}>We have resolved your request {data.reference}.</Text>;
    case "out_of_stock":
      return (
        <Text style={text}>
          We are sorry: we received your payment for order #{data.orderNumber}, but the goods are no longer in stock. We
          will refund everything you paid{amount ? `, ${amount},` : ""} by {by} at the latest (reference{" "}
          {data.reference}).
        </Text>
      );
  }
}

export function ReturnUpdateEmail({ data, shop }: { data: ReturnUpdateData; shop: ShopIdentity }) {
  return (
    <EmailLayout shop={shop} preview={`${HEADINGS[data.step]}: ${data.reference}`} heading={HEADINGS[data.step]}>
      <Text style={text}>{greeting(data.customerName, data.greetByName)}</Text>
      <StepText data={data} shop={shop} />
      {data.note && (
        <Section
          style={{ margin: "0 0 16px", padding: "12px 16px", backgroundColor: colour.brandTint, borderRadius: "8px" }}
        >
          <Text style={{ ...text, margin: 0, whiteSpace: "pre-line" }}>{data.note}</Text>
        </Section>
      )}
      {data.lines.length > 0 && (
        <>
          <SectionHeading>{`${data.reference} · order #${data.orderNumber}`}</SectionHeading>
          <OrderLines lines={data.lines} priced={false} />
        </>
      )}
      <CallToAction href={`${shop.publicUrl}/profile`} label="View your order" secondary />
    </EmailLayout>
  );
}
