import { Text } from "@react-email/components";
import { type PasswordResetData, RESET_MINUTES, type SendTimeData, type ShopIdentity } from "../messages.js";
import { EmailLayout } from "./layout.js";
import { CallToAction } from "./parts.js";
import { colour, small, text } from "./theme.js";

/** Shown in place of the link when an admin previews a message that has not been sent (no token yet). */
export const LINK_NOT_MADE_YET = "(the link is made when this message is sent)";

interface PasswordResetEmailProps {
  data: PasswordResetData;
  shop: ShopIdentity;
  sendTime: SendTimeData;
}

export function PasswordResetEmail({ shop, sendTime }: PasswordResetEmailProps) {
  return (
    <EmailLayout
      shop={shop}
      preview={`A link to choose a new password for your ${shop.name} account. It works for ${RESET_MINUTES} minutes.`}
      heading="Choose a new password"
    >
      {/* No name: anyone can sign up with someone else's address and any "name" (docs/decisions/020). */}
      <Text style={text}>Hello,</Text>
      <Text style={text}>
        Someone, hopefully you, asked to reset the password of your {shop.name} account. Use this link to choose a new
        one. It works for {RESET_MINUTES} minutes, and only once.
      </Text>
      {sendTime.resetUrl ? (
        <CallToAction href={sendTime.resetUrl} label="Choose a new password" spellOut />
      ) : (
        <Text style={{ ...text, color: colour.muted, fontStyle: "italic" }}>{LINK_NOT_MADE_YET}</Text>
      )}
      <Text style={text}>If you did not ask, ignore this message; your password stays the same.</Text>
      <Text style={{ ...small, margin: "0 0 16px" }}>
        For your safety we never ask for your password by e-mail or phone.
      </Text>
    </EmailLayout>
  );
}
