import {
  Body,
  Column,
  Container,
  Head,
  Heading,
  Html,
  Link,
  Preview,
  Row,
  Section,
  Text,
} from "@react-email/components";
import type { ReactNode } from "react";
import type { ShopIdentity } from "../messages.js";
import { colour, fontFamily, small } from "./theme.js";

interface EmailLayoutProps {
  shop: ShopIdentity;
  /** The line a mail app shows after the subject in the inbox. */
  preview: string;
  heading: string;
  children: ReactNode;
}

/** The frame of every message: the shop's header, one card of content, and the shop's details. */
export function EmailLayout({ shop, preview, heading, children }: EmailLayoutProps) {
  return (
    <Html lang="en-ZA">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ margin: 0, padding: "24px 12px", backgroundColor: colour.page, fontFamily }}>
        <Container style={{ width: "100%", maxWidth: "600px" }}>
          <Section
            style={{
              backgroundColor: colour.white,
              border: `1px solid ${colour.border}`,
              borderRadius: "12px",
              overflow: "hidden",
            }}
          >
            <ShopHeader shop={shop} />
            <Section style={{ padding: "28px 24px 12px" }}>
              <Heading
                as="h1"
                style={{
                  margin: "0 0 16px",
                  fontSize: "24px",
                  lineHeight: "32px",
                  fontWeight: 700,
                  color: colour.text,
                }}
              >
                {heading}
              </Heading>
              {children}
            </Section>
          </Section>
          <ShopFooter shop={shop} />
        </Container>
      </Body>
    </Html>
  );
}

/** The wordmark on the brand colour, with the leaf mark drawn in CSS (mail apps drop SVG). */
function ShopHeader({ shop }: { shop: ShopIdentity }) {
  return (
    <Section style={{ backgroundColor: colour.brand, padding: "18px 24px" }}>
      <Row>
        <Column style={{ width: "34px", verticalAlign: "middle" }} data-skip-in-text="true">
          <div
            style={{
              width: "24px",
              height: "24px",
              fontSize: 0,
              lineHeight: 0,
              backgroundColor: colour.brandLight,
              borderRadius: "2px 16px 2px 16px",
            }}
          />
        </Column>
        <Column style={{ verticalAlign: "middle" }}>
          <Link
            href={`${shop.publicUrl}/`}
            style={{
              color: colour.white,
              fontSize: "20px",
              lineHeight: "28px",
              fontWeight: 700,
              textDecoration: "none",
            }}
          >
            {shop.name}
          </Link>
        </Column>
      </Row>
    </Section>
  );
}

function ShopFooter({ shop }: { shop: ShopIdentity }) {
  const footerLink = { color: colour.muted, textDecoration: "underline" };
  return (
    <Section style={{ padding: "20px 24px 8px", textAlign: "center" }}>
      <Text style={{ ...small, fontWeight: 700, color: colour.text }}>{shop.name}</Text>
      <Text style={small}>{shop.address}</Text>
      <Text style={small}>
        <Link href={`mailto:${shop.email}`} style={footerLink}>
          {shop.email}
        </Link>
        {" · "}
        <Link href={`tel:${shop.phone.replace(/[^\d+]/g, "")}`} style={footerLink}>
          {shop.phone}
        </Link>
      </Text>
    </Section>
  );
}
