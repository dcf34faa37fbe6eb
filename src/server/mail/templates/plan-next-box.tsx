import { Text } from "@react-email/components";
import { formatRand } from "#domain/money.js";
import { formatPlanDay } from "#domain/plans.js";
import type { PlanNextBoxData, ShopIdentity } from "../messages.js";
import { greeting } from "./free-text.js";
import { EmailLayout } from "./layout.js";
import { CallToAction, OrderLines } from "./parts.js";
import { small, text } from "./theme.js";

/**
 * "Your next box": the lines and the total at today's prices, the charge day, a price that rose said
 * plainly, and the links to skip (no login) or change. Asked for with the plan: a service message.
 */
export function PlanNextBoxEmail({ data, shop }: { data: PlanNextBoxData; shop: ShopIdentity }) {
  const day = formatPlanDay(data.chargeDate);
  const rose = data.lines.filter(
    (line) => line.previousUnitPriceCents !== null && line.unitPriceCents > line.previousUnitPriceCents,
  );
  return (
    <EmailLayout
      shop={shop}
      preview={`Your next nappy plan box is due on ${day}: skip or change it before then.`}
      heading="Your next box is on its way soon"
    >
      <Text style={text}>{greeting(data.customerName, data.greetByName)}</Text>
      <Text style={text}>
        {data.mode === "card"
          ? `On ${day} we charge ${formatRand(data.totalCents)} to the card you paid your plan with, and send your box. This is what it holds, at today's prices:`
          : `Your next box is due on ${day}. Pay ${formatRand(data.totalCents)} for it with the button below (by EFT or card) and we send it. This is what it holds, at today's prices:`}
      </Text>
      <OrderLines lines={data.lines} priced />
      <Text style={text}>
        Subtotal {formatRand(data.subtotalCents)}, delivery{" "}
        {data.deliveryFeeCents === 0 ? "free" : formatRand(data.deliveryFeeCents)}:{" "}
        <strong>total {formatRand(data.totalCents)}</strong>.
      </Text>
      {rose.map((line) => (
        <Text key={`${line.name}-${line.size}`} style={text}>
          <strong>A price went up:</strong> {line.name} ({line.size}) now costs {formatRand(line.unitPriceCents)} a pack
          with your plan saving, up from {formatRand(line.previousUnitPriceCents ?? 0)} in your last box.
        </Text>
      ))}
      {data.payUrl ? <CallToAction href={data.payUrl} label="Pay for this box" spellOut /> : null}
      <CallToAction href={data.skipUrl} label="Skip this box" spellOut={!data.payUrl} secondary={!!data.payUrl} />
      <CallToAction href={data.changeUrl} label="Change my plan" secondary />
      <Text style={{ ...small, margin: "0 0 16px" }}>
        The prices are the shop's prices on the charge day less your plan saving; if they change before {day}, the box
        costs the new amount. You can skip, change, pause or cancel the plan at any time before then, with no fee. You
        get this e-mail because you have a nappy plan with {shop.name}; it is not marketing.
      </Text>
    </EmailLayout>
  );
}
