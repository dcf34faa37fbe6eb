import { Link, Section, Text } from "@react-email/components";
import { formatLongDateTime } from "#domain/sa-format.js";
import type { OwnerAlertData, ShopIdentity } from "../messages.js";
import { EmailLayout } from "./layout.js";
import { colour, link, small, text } from "./theme.js";

/** To the shop's owner (ALERT_EMAIL): a problem the shop's checks found, or the note that it cleared. */
export function OwnerAlertEmail({ data, shop }: { data: OwnerAlertData; shop: ShopIdentity }) {
  const raised = data.state === "raised";
  const since = formatLongDateTime(data.raisedAt);
  return (
    <EmailLayout
      shop={shop}
      // The title is the check's own words; the detail may quote what it saw (an order, an error), so it stays in the body.
      preview={raised ? `Alert: ${data.title}` : `Resolved: ${data.title}`}
      heading={raised ? `Alert: ${data.title}` : `Resolved: ${data.title}`}
    >
      <Section
        style={{
          margin: "0 0 16px",
          padding: "12px 16px",
          backgroundColor: raised ? colour.brandTint : colour.page,
          borderRadius: "8px",
        }}
      >
        <Text style={{ ...text, margin: 0, fontWeight: 600 }}>{data.title}</Text>
        <Text style={{ ...small, marginTop: "4px" }}>
          {raised
            ? `Since ${since} (South African time)`
            : `From ${since} to ${formatLongDateTime(data.resolvedAt ?? data.raisedAt)} (South African time)`}
        </Text>
      </Section>
      <Text style={text}>
        {raised ? data.detail : "The shop's checks no longer see this problem. There is nothing more to do."}
      </Text>
      <Text style={text}>
        The admin:{" "}
        <Link href={`${shop.publicUrl}/admin`} style={link}>
          {`${shop.publicUrl}/admin`}
        </Link>
        . You get one message when a problem starts and one when it ends.
      </Text>
    </EmailLayout>
  );
}
