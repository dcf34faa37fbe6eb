import { Link, Section, Text } from "@react-email/components";
import { formatLongDateTime } from "#domain/sa-format.js";
import type { LoginFailuresData, ShopIdentity } from "../messages.js";
import { greeting } from "./free-text.js";
import { EmailLayout } from "./layout.js";
import { NoWrap } from "./parts.js";
import { colour, link, small, text } from "./theme.js";

/** To an account's holder when its password was given wrongly many times (auth/login-failures.ts). */
export function LoginFailuresEmail({ data, shop }: { data: LoginFailuresData; shop: ShopIdentity }) {
  const when = formatLongDateTime(data.at);
  const what = `${data.failures} wrong passwords in ${data.windowMinutes} minutes`;
  return (
    <EmailLayout
      shop={shop}
      preview={`Someone gave a wrong password for your account ${data.failures} times. Nobody got in.`}
      heading="Someone is trying to log in to your account"
    >
      <Text style={text}>{greeting(data.name, data.greetByName)}</Text>
      <Text style={text}>Your {shop.name} account was given a wrong password many times:</Text>
      <Section
        style={{ margin: "0 0 16px", padding: "12px 16px", backgroundColor: colour.brandTint, borderRadius: "8px" }}
      >
        <Text style={{ ...text, margin: 0, fontWeight: 600 }}>{what}.</Text>
        <Text style={{ ...small, marginTop: "4px" }}>Up to {when} (South African time)</Text>
      </Section>
      <Text style={text}>
        Nobody got in with a wrong password. The networks the wrong passwords came from are paused for{" "}
        {data.windowMinutes} minutes; you can still log in as usual from your own. We send this message at most once a
        day.
      </Text>
      <Text style={text}>
        If it was you and you have forgotten your password, use Forgot password? in the login dialog.
      </Text>
      <Text style={text}>
        <strong>If it was not you</strong>, nothing was changed. To be safe, choose a password you use nowhere else
        (Forgot password? at{" "}
        <Link href={`${shop.publicUrl}/`} style={link}>
          {`${shop.publicUrl}/`}
        </Link>
        ), and contact us at{" "}
        <Link href={`mailto:${shop.email}`} style={link}>
          {shop.email}
        </Link>{" "}
        / <NoWrap>{shop.phone}</NoWrap> if you are worried.
      </Text>
    </EmailLayout>
  );
}
