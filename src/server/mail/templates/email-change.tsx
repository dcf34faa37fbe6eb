import { Text } from "@react-email/components";
import { EMAIL_CHANGE_HOURS } from "../email-change-hours.js";
import type { SendTimeData, ShopIdentity } from "../messages.js";
import { EmailLayout } from "./layout.js";
import { CallToAction } from "./parts.js";
import { LINK_NOT_MADE_YET } from "./password-reset.js";
import { colour, small, text } from "./theme.js";

/** To a new address: follow the link to make it the account's. No name: the address is not proven yet. */
export function EmailChangeEmail({ shop, sendTime }: { shop: ShopIdentity; sendTime: SendTimeData }) {
  return (
    <EmailLayout
      shop={shop}
      preview={`Confirm this address for your ${shop.name} account. The link works for ${EMAIL_CHANGE_HOURS} hours.`}
      heading="Confirm your new e-mail address"
    >
      <Text style={text}>Hello,</Text>
      <Text style={text}>
        Someone asked to use this address for a {shop.name} account. Your account keeps its old address until you
        confirm with this link. It works for {EMAIL_CHANGE_HOURS} hours, and only once.
      </Text>
      {sendTime.confirmUrl ? (
        <CallToAction href={sendTime.confirmUrl} label="Confirm this address" spellOut />
      ) : (
        <Text style={{ ...text, color: colour.muted, fontStyle: "italic" }}>{LINK_NOT_MADE_YET}</Text>
      )}
      <Text style={text}>If you did not ask, ignore this message: nothing changes.</Text>
      <Text style={{ ...small, margin: "0 0 16px" }}>
        For your safety we never ask for your password by e-mail or phone.
      </Text>
    </EmailLayout>
  );
}
