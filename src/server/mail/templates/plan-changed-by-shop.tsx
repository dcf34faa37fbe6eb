import { Text } from "@react-email/components";
import { formatPlanDay } from "#domain/plans.js";
import type { PlanChangedByShopData, ShopIdentity } from "../messages.js";
import { FREE_TEXT_LIMITS, greeting, plainText } from "./free-text.js";
import { EmailLayout } from "./layout.js";
import { CallToAction } from "./parts.js";
import { small, text } from "./theme.js";

/** The shop paused or cancelled a customer's plan: what changed, why (the admin's words), and where to see it. */
export function PlanChangedByShopEmail({ data, shop }: { data: PlanChangedByShopData; shop: ShopIdentity }) {
  const paused = data.change === "paused";
  return (
    <EmailLayout
      shop={shop}
      preview={paused ? "We have paused your nappy plan." : "We have cancelled your nappy plan."}
      heading={paused ? "Your nappy plan is paused" : "Your nappy plan is cancelled"}
    >
      <Text style={text}>{greeting(data.customerName, data.greetByName)}</Text>
      <Text style={text}>
        {paused
          ? `We have paused your nappy plan until ${formatPlanDay(data.until ?? "")}: no box is charged or sent before then. It starts again on its own that day.`
          : "We have cancelled your nappy plan: no more boxes will be charged or sent, and the card you paid with is no longer kept for it."}
      </Text>
      <Text style={text}>
        <strong>Why:</strong> {plainText(data.reason, FREE_TEXT_LIMITS.reason)}
      </Text>
      <CallToAction href={data.plansUrl} label="Open My plans" />
      <Text style={{ ...small, margin: "0 0 16px" }}>
        Questions? Reply to this e-mail or contact us. You get this e-mail because you have a nappy plan with{" "}
        {shop.name}; it is not marketing.
      </Text>
    </EmailLayout>
  );
}
