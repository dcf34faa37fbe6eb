import { Link, Text } from "@react-email/components";
import { formatLongDateTime } from "#domain/sa-format.js";
import { EMAIL_CHANGE_HOURS } from "../email-change-hours.js";
import type { SendTimeData, ShopIdentity, SignupAttemptData } from "../messages.js";
import { EmailLayout } from "./layout.js";
import { CallToAction } from "./parts.js";
import { LINK_NOT_MADE_YET } from "./password-reset.js";
import { colour, link, small, text } from "./theme.js";

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

/** At sign-up (or Resend on the profile): follow the link to prove the address is the account's. No name: not proven yet. */
export function EmailConfirmEmail({ shop, sendTime }: { shop: ShopIdentity; sendTime: SendTimeData }) {
  return (
    <EmailLayout
      shop={shop}
      preview={`Confirm this address for your new ${shop.name} account. The link works for ${EMAIL_CHANGE_HOURS} hours.`}
      heading="Confirm your e-mail address"
    >
      <Text style={text}>Hello,</Text>
      <Text style={text}>
        A {shop.name} account was opened with this address. Confirm that it is yours with this link. It works for{" "}
        {EMAIL_CHANGE_HOURS} hours, and only once; a new one can be sent from your profile.
      </Text>
      {sendTime.confirmUrl ? (
        <CallToAction href={sendTime.confirmUrl} label="Confirm this address" spellOut />
      ) : (
        <Text style={{ ...text, color: colour.muted, fontStyle: "italic" }}>{LINK_NOT_MADE_YET}</Text>
      )}
      <Text style={text}>
        If you did not open an account, ignore this message: until the address is confirmed, the account cannot see
        anything the shop sent to it.
      </Text>
      <Text style={{ ...small, margin: "0 0 16px" }}>
        For your safety we never ask for your password by e-mail or phone.
      </Text>
    </EmailLayout>
  );
}

/** To an address that already has an account, when someone tried to sign up with it again. */
export function SignupAttemptEmail({ data, shop }: { data: SignupAttemptData; shop: ShopIdentity }) {
  return (
    <EmailLayout
      shop={shop}
      preview={`Someone tried to open a ${shop.name} account with this address on ${formatLongDateTime(data.attemptedAt)}.`}
      heading="Someone tried to sign up with your address"
    >
      <Text style={text}>Hello,</Text>
      <Text style={text}>
        On {formatLongDateTime(data.attemptedAt)} (South African time) someone tried to open a new {shop.name} account
        with this e-mail address. This address already has an account, so no new one was made and nothing about your
        account changed.
      </Text>
      <Text style={text}>
        If it was you, log in with your username or this address instead. Forgot your password? Use "Forgot password?"
        in the login dialog at{" "}
        <Link href={`${shop.publicUrl}/`} style={link}>
          {`${shop.publicUrl}/`}
        </Link>
        .
      </Text>
      <Text style={text}>If it was not you, there is nothing to do: ignore this message.</Text>
    </EmailLayout>
  );
}
