import { Link, Text } from "@react-email/components";
import { STOCK_ALERT_CONFIRM_HOURS } from "#domain/stock-alerts.js";
import type { BackInStockData, ShopIdentity, StockAlertConfirmData } from "../messages.js";
import { EmailLayout } from "./layout.js";
import { CallToAction } from "./parts.js";
import { link, small, text } from "./theme.js";

/** The link that confirms an alert asked for without logging in: nothing is sent to an address until it is used. */
export function StockAlertConfirmEmail({ data, shop }: { data: StockAlertConfirmData; shop: ShopIdentity }) {
  return (
    <EmailLayout
      shop={shop}
      preview="Confirm that you want one e-mail when the size you asked about is back in stock."
      heading="Confirm your back-in-stock alert"
    >
      <Text style={text}>
        Someone, hopefully you, asked {shop.name} to e-mail this address once when{" "}
        <strong>
          {data.productName} ({data.size})
        </strong>{" "}
        is back in stock. Confirm it with this link; it works for {STOCK_ALERT_CONFIRM_HOURS} hours.
      </Text>
      <CallToAction href={data.confirmUrl} label="Confirm the alert" spellOut />
      <Text style={text}>If you did not ask, ignore this message: without the link we send nothing more.</Text>
      <Text style={{ ...small, margin: "0 0 16px" }}>
        The product:{" "}
        <Link href={data.productUrl} style={link}>
          {data.productUrl}
        </Link>
      </Text>
    </EmailLayout>
  );
}

/** The one message an alert sends: the size is back, with the product's link and a way out that needs no login. */
export function BackInStockEmail({ data, shop }: { data: BackInStockData; shop: ShopIdentity }) {
  return (
    <EmailLayout
      shop={shop}
      preview={`The size you asked about is back in stock at ${shop.name}.`}
      heading="Your size is back in stock"
    >
      <Text style={text}>
        Good news: <strong>{data.productName}</strong> in <strong>{data.size}</strong> is back in stock at {shop.name}.
        Stock is first come, first served.
      </Text>
      <CallToAction href={data.productUrl} label="See the product" spellOut />
      <Text style={text}>
        You asked for this one e-mail, so your alert for this size has now ended. We send no other messages because of
        it.
      </Text>
      <Text style={{ ...small, margin: "0 0 16px" }}>
        Do not want alerts from us?{" "}
        <Link href={data.unsubscribeUrl} style={link}>
          Unsubscribe
        </Link>{" "}
        ({data.unsubscribeUrl})
      </Text>
    </EmailLayout>
  );
}
