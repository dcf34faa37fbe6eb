import { Button, Column, Hr, Link, Row, Section, Text } from "@react-email/components";
import { Fragment } from "react";
import { formatRand } from "#domain/money.js";
import { addressLines } from "#domain/schemas/address.js";
import { formatVatRate, type VatRateTotal } from "#domain/vat.js";
import { vatWording } from "#domain/vat-wording.js";
import type { EmailDelivery, EmailLine, EmailPromo } from "../messages.js";
import { FREE_TEXT_LIMITS, plainText } from "./free-text.js";
import { colour, link, sectionHeading, small, tabular, text } from "./theme.js";

interface CallToActionProps {
  href: string;
  label: string;
  spellOut?: boolean;
  /** Outlined, for a second action below the main one. */
  secondary?: boolean;
}

/**
 * One clear action as a large button. `spellOut` writes the address under it too, for links that must
 * work when a mail app blocks buttons (the text part always has it).
 */
export function CallToAction({ href, label, spellOut = false, secondary = false }: CallToActionProps) {
  return (
    <Section style={{ margin: "8px 0 24px" }}>
      <Button
        href={href}
        style={{
          display: "inline-block",
          backgroundColor: secondary ? colour.white : colour.brand,
          color: secondary ? colour.brand : colour.white,
          border: `2px solid ${colour.brand}`,
          fontSize: "16px",
          lineHeight: "24px",
          fontWeight: 700,
          padding: "10px 22px",
          borderRadius: "8px",
          textDecoration: "none",
        }}
      >
        {label}
      </Button>
      {spellOut && (
        <Text style={{ ...small, marginTop: "12px", wordBreak: "break-all" }} data-skip-in-text="true">
          Or open this link:{" "}
          <Link href={href} style={link}>
            {href}
          </Link>
        </Text>
      )}
    </Section>
  );
}

/** The order's lines: name, size and quantity; with prices when `priced`. */
export function OrderLines({ lines, priced }: { lines: EmailLine[]; priced: boolean }) {
  return (
    <Section style={{ margin: "8px 0 0" }}>
      {lines.map((line, index) => (
        <Row
          // Lines carry no id; their order is fixed for the message.
          // biome-ignore lint/suspicious/noArrayIndexKey: a static list rendered once
          key={index}
          className="text-columns"
          style={{ borderTop: index === 0 ? "none" : `1px solid ${colour.border}` }}
        >
          <Column style={{ padding: "12px 0", verticalAlign: "top" }}>
            <Text style={{ ...text, margin: 0, fontWeight: 600 }}>{plainText(line.name, FREE_TEXT_LIMITS.line)}</Text>
            <Text style={small}>
              Size {plainText(line.size, FREE_TEXT_LIMITS.name)} ·{" "}
              <span style={{ whiteSpace: "nowrap" }}>
                {priced ? `${line.quantity} x ${formatRand(line.unitPriceCents)}` : `Quantity ${line.quantity}`}
              </span>
            </Text>
          </Column>
          {priced && (
            <Column style={{ padding: "12px 0 12px 12px", verticalAlign: "top", textAlign: "right", width: "96px" }}>
              <Text style={{ ...text, ...tabular, margin: 0, fontWeight: 600 }}>
                {formatRand(line.unitPriceCents * line.quantity)}
              </Text>
            </Column>
          )}
        </Row>
      ))}
    </Section>
  );
}

interface TotalsProps {
  subtotalCents: number;
  /** Off the goods by multi-buy tiers; absent or 0: no row. */
  multibuyDiscountCents?: number | undefined;
  /** A promo code's discount, after the subtotal. */
  promo?: EmailPromo | undefined;
  deliveryFeeCents: number;
  totalCents: number;
  vatCents: number;
  /** The VAT per rate; without it (a message written before VAT per line) one "VAT included" line. */
  vatByRate?: readonly VatRateTotal[] | undefined;
  /** Whether the shop is VAT-registered: only then are VAT lines shown (src/domain/vat-wording.ts). */
  vatRegistered: boolean;
}

export function Totals({
  subtotalCents,
  multibuyDiscountCents = 0,
  promo,
  deliveryFeeCents,
  totalCents,
  vatCents,
  vatByRate,
  vatRegistered,
}: TotalsProps) {
  return (
    <Section style={{ margin: "4px 0 24px", padding: "12px 16px", backgroundColor: colour.sand, borderRadius: "8px" }}>
      <AmountRow label="Subtotal" amount={formatRand(subtotalCents)} />
      {multibuyDiscountCents > 0 && (
        <AmountRow label="Multi-buy saving" amount={`-${formatRand(multibuyDiscountCents)}`} />
      )}
      {promo && promo.discountCents > 0 && (
        <AmountRow label={`Promo code ${promo.code}`} amount={`-${formatRand(promo.discountCents)}`} />
      )}
      <AmountRow
        label={promo && promo.deliveryDiscountCents > 0 ? `Delivery (free with ${promo.code})` : "Delivery"}
        amount={deliveryFeeCents === 0 ? "Free" : formatRand(deliveryFeeCents)}
      />
      <Hr style={{ margin: "8px 0", borderColor: colour.border }} />
      <AmountRow label="Total" amount={formatRand(totalCents)} strong />
      {!vatRegistered ? (
        <Text style={{ ...small, margin: "4px 0 0" }}>{vatWording(false).pricesNote}</Text>
      ) : vatByRate ? (
        vatByRate.map((rate) => (
          <AmountRow
            key={`${rate.vatClass}:${rate.rateBp}`}
            label={
              rate.vatClass === "zero"
                ? `VAT at ${formatVatRate(rate.rateBp)} (zero-rated items)`
                : `VAT included at ${formatVatRate(rate.rateBp)}`
            }
            amount={formatRand(rate.vatCents)}
            muted
          />
        ))
      ) : (
        <AmountRow label="VAT included" amount={formatRand(vatCents)} muted />
      )}
    </Section>
  );
}

function AmountRow({
  label,
  amount,
  strong,
  muted,
}: {
  label: string;
  amount: string;
  strong?: boolean;
  muted?: boolean;
}) {
  const style = {
    ...text,
    margin: 0,
    padding: "2px 0",
    fontSize: strong ? "18px" : muted ? "14px" : "16px",
    fontWeight: strong ? 700 : 400,
    color: muted ? colour.muted : colour.text,
  };
  return (
    <Row className="text-columns">
      <Column>
        <Text style={style}>{label}</Text>
      </Column>
      <Column style={{ textAlign: "right" }}>
        <Text style={{ ...style, ...tabular }}>{amount}</Text>
      </Column>
    </Row>
  );
}

/** Where the parcel goes, as the customer gave it at checkout. */
export function DeliveryAddress({ delivery }: { delivery: EmailDelivery }) {
  // Free text, as the customer typed it: plain, cut, never a link (templates/free-text.ts).
  const lines = [
    plainText(delivery.name, FREE_TEXT_LIMITS.name),
    ...addressLines({ ...delivery, complex: delivery.complex ?? "", suburb: delivery.suburb ?? "" })
      .map((part) => plainText(part, FREE_TEXT_LIMITS.line))
      .slice(0, 6),
    plainText(delivery.phone, FREE_TEXT_LIMITS.line),
    delivery.altPhone ? `Other number: ${plainText(delivery.altPhone, FREE_TEXT_LIMITS.line)}` : "",
  ].filter((line) => line.trim() !== "");
  return (
    <Section style={{ margin: "0 0 24px" }}>
      {delivery.option ? (
        <Text style={{ ...text, margin: "0 0 8px" }}>
          Delivery: {plainText(delivery.option, FREE_TEXT_LIMITS.reason)}
        </Text>
      ) : null}
      <Text style={sectionHeading}>Delivery address</Text>
      <Text style={{ ...text, margin: 0 }}>
        {lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one address, rendered once
          <Fragment key={index}>
            {index > 0 && <br />}
            {line}
          </Fragment>
        ))}
      </Text>
      {delivery.deliveryInstructions ? (
        <Text style={{ ...text, margin: "8px 0 0" }}>
          Delivery instructions: {plainText(delivery.deliveryInstructions, FREE_TEXT_LIMITS.reason)}
        </Text>
      ) : null}
    </Section>
  );
}

/** Keeps a phrase on one line ("2-5 business days" must not break at its hyphen). */
export function NoWrap({ children }: { children: string }) {
  return <span style={{ whiteSpace: "nowrap" }}>{children}</span>;
}

export function SectionHeading({ children }: { children: string }) {
  return <Text style={sectionHeading}>{children}</Text>;
}
