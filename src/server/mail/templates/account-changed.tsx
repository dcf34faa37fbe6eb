import { Link, Section, Text } from "@react-email/components";
import { formatLongDateTime } from "#domain/sa-format.js";
import type { AccountChangedData, ShopIdentity } from "../messages.js";
import { FREE_TEXT_LIMITS, greeting, plainText } from "./free-text.js";
import { EmailLayout } from "./layout.js";
import { NoWrap } from "./parts.js";
import { colour, link, small, text } from "./theme.js";

export function AccountChangedEmail({ data, shop }: { data: AccountChangedData; shop: ShopIdentity }) {
  const locked = data.change === "second_factor_locked";
  const what =
    data.change === "password"
      ? "Your password was changed"
      : locked
        ? "Ten wrong two-step sign-in codes were typed after your password, so codes from your authenticator app are locked for 15 minutes (your recovery codes still work)"
        : `The e-mail address of your account was changed to ${data.newEmail ? plainText(data.newEmail, FREE_TEXT_LIMITS.line) : "a new address"}`;
  const when = formatLongDateTime(data.changedAt);
  const heading =
    data.change === "password"
      ? "Your password was changed"
      : locked
        ? "Your sign-in codes are locked"
        : "Your e-mail address was changed";
  return (
    <EmailLayout shop={shop} preview={`${what} on ${when}.`} heading={heading}>
      <Text style={text}>{greeting(data.name, data.greetByName)}</Text>
      <Text style={text}>This is a notice that something about your {shop.name} account changed:</Text>
      <Section
        style={{ margin: "0 0 16px", padding: "12px 16px", backgroundColor: colour.brandTint, borderRadius: "8px" }}
      >
        <Text style={{ ...text, margin: 0, fontWeight: 600 }}>{what}.</Text>
        <Text style={{ ...small, marginTop: "4px" }}>{when} (South African time)</Text>
      </Section>
      <Text style={text}>
        {locked
          ? "If this was you, wait 15 minutes or use a recovery code. If it was not, someone knows your password."
          : "If this was you, there is nothing more to do."}
      </Text>
      <Text style={text}>
        <strong>If this was not you</strong>, reset your password at{" "}
        <Link href={`${shop.publicUrl}/`} style={link}>
          {`${shop.publicUrl}/`}
        </Link>{" "}
        (Forgot password? in the login dialog) and contact us at{" "}
        <Link href={`mailto:${shop.email}`} style={link}>
          {shop.email}
        </Link>{" "}
        / <NoWrap>{shop.phone}</NoWrap>.
      </Text>
    </EmailLayout>
  );
}
