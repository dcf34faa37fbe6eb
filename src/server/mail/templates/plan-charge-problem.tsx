import { Text } from "@react-email/components";
import { formatRand } from "#domain/money.js";
import { formatPlanDay } from "#domain/plans.js";
import type { PlanChargeProblemData, ShopIdentity } from "../messages.js";
import { greeting } from "./free-text.js";
import { EmailLayout } from "./layout.js";
import { CallToAction } from "./parts.js";
import { small, text } from "./theme.js";

/**
 * A nappy plan's box that could not be charged: the card declined (update it; tried again on a
 * day said), a card that can no longer be charged (a new card), or a size out of stock on the charge
 * day (nothing charged; choose another size or skip). A service message about the plan, not marketing.
 */
export function PlanChargeProblemEmail({ data, shop }: { data: PlanChargeProblemData; shop: ShopIdentity }) {
  const day = formatPlanDay(data.chargeDate);
  const heading =
    data.reason === "out_of_stock"
      ? "A size in your box is out of stock"
      : data.reason === "declined"
        ? "Your card was declined"
        : "Your plan needs a card";
  return (
    <EmailLayout shop={shop} preview={`${heading}: your nappy plan box of ${day} was not charged.`} heading={heading}>
      <Text style={text}>{greeting(data.customerName, data.greetByName)}</Text>
      {data.reason === "out_of_stock" ? (
        <>
          <Text style={text}>
            We could not pack your box of {day}, so we have not charged you for it. What is short:
          </Text>
          {data.shortLines.map((line) => (
            <Text key={`${line.name}-${line.size}`} style={text}>
              {line.name} ({line.size}): {line.wanted} wanted, {line.left === 0 ? "none" : line.left} left.
            </Text>
          ))}
          <Text style={text}>
            Choose another size or a smaller quantity in My plans and we charge and send the box then, or skip this box.
          </Text>
        </>
      ) : data.reason === "declined" ? (
        <Text style={text}>
          Your card was declined for your box of {day} ({formatRand(data.totalCents)}), so it was not charged.
          {data.retryDate
            ? ` We try once more on ${formatPlanDay(data.retryDate)}; please update your card before then.`
            : ""}
        </Text>
      ) : (
        <Text style={text}>
          We could not charge your card for your box of {day} ({formatRand(data.totalCents)}), and we will not try it
          again. To keep your plan going, update your card, or start the plan again with a new card from My plans.
        </Text>
      )}
      {data.updateCardUrl && data.reason !== "out_of_stock" ? (
        <CallToAction href={data.updateCardUrl} label="Update my card" spellOut />
      ) : null}
      <CallToAction href={data.changeUrl} label="My plans" secondary={data.reason !== "out_of_stock"} />
      <Text style={{ ...small, margin: "0 0 16px" }}>
        You get this e-mail because you have a nappy plan with {shop.name}; it is not marketing. You can change, pause
        or cancel the plan at any time, with no fee.
      </Text>
    </EmailLayout>
  );
}
