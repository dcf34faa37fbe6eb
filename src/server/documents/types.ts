import type { RefundBasis } from "#domain/refund-lines.js";
import { addressLines } from "#domain/schemas/address.js";
import { type DocumentVat, lineOffCents, type VatClass } from "#domain/vat.js";
import type { ShopDetails } from "./pdf.js";

/** Who bought: the delivery name and address, and a business buyer's company and VAT number. */
export interface DocumentCustomer {
  name: string;
  companyName: string | null;
  vatNumber: string | null;
  email: string;
  phone: string;
  address: string;
  city: string;
  province: string;
  zipCode: string;
  /** "" on orders placed before the address had them. */
  suburb: string;
  complex: string;
  /** For the courier: on the packing slip, not on the tax documents. */
  deliveryInstructions: string;
  altPhone: string;
}

export interface DocumentLine {
  name: string;
  size: string;
  quantity: number;
  unitPriceCents: number;
  /** As stored when the order was placed. */
  vatClass: VatClass;
  vatRateBp: number;
  /** Its share of a promo code's discount: it was sold for unit price x quantity less this. */
  discountCents?: number;
  /** Its share of a multi-buy saving (src/domain/multibuy.ts), off its amount as a promo's is. */
  multibuyDiscountCents?: number;
}

/** A line's amount as sold: unit price x quantity less its shares of a promo discount and a multi-buy saving. */
export const paidForLine = (line: DocumentLine): number => line.unitPriceCents * line.quantity - lineOffCents(line);

export interface InvoiceData {
  shop: ShopDetails;
  /** "INV-000001". */
  number: string;
  issuedAt: Date;
  orderNumber: string;
  customer: DocumentCustomer;
  lines: DocumentLine[];
  subtotalCents: number;
  /** A promo code's: its name, what it took off the goods (spread over the lines), the delivery fee it waived. */
  promoCode?: string | null;
  discountCents?: number;
  deliveryDiscountCents?: number;
  /** Off the goods by multi-buy tiers (the sum of the lines' shares): the "Multi-buy saving" row. */
  multibuyDiscountCents?: number;
  deliveryFeeCents: number;
  deliveryVatRateBp: number;
  totalCents: number;
  /** Per line (the product lines, then the delivery fee when there is one), per rate and in all: src/domain/vat.ts. */
  vat: DocumentVat;
  /** The terms, return policy and privacy policy the order was placed under, with their absolute addresses. */
  policies: DocumentPolicy[];
  /**
   * A corrected invoice (VAT Act s20(1B)): the invoice it replaces, why, and when it was corrected;
   * `issuedAt` stays the original's date (the time of supply is unaltered).
   */
  correction?: InvoiceCorrection;
}

export interface InvoiceCorrection {
  /** "INV-000001". */
  replaces: string;
  reason: string;
  correctedAt: Date;
}

export interface DocumentPolicy {
  /** "Terms and Conditions, version 2 of 26 November 2026". */
  label: string;
  url: string;
}

export interface CreditNoteData {
  shop: ShopDetails;
  /** "CN-000001". */
  number: string;
  issuedAt: Date;
  /** The invoice it credits ("INV-000001"). */
  invoiceNumber: string;
  orderNumber: string;
  customer: DocumentCustomer;
  amountCents: number;
  reason: string;
  restocked: boolean;
  /** What it reverses, per rate of the invoice (src/server/orders/credit-note-vat.ts). */
  vat: DocumentVat;
  /**
   * How it credits the invoice's lines (docs/decisions/036): "lines" chosen (listed in `lines`, with
   * the delivery fee's part), "proportional" or "legacy" (its amount spread over every line).
   */
  vatBasis?: RefundBasis;
  /** The lines it credits when they were chosen: units back and the amount, at the line's rate. */
  lines?: { name: string; size: string; quantity: number; amountCents: number; vatRateBp: number }[];
  deliveryCents?: number;
}

export interface PackingSlipOrder {
  orderNumber: string;
  paidAt: Date;
  customer: DocumentCustomer;
  lines: Pick<DocumentLine, "name" | "size" | "quantity">[];
}

export interface PackingSlipsData {
  shop: ShopDetails;
  /** The day, YYYY-MM-DD in South African time. */
  date: string;
  orders: PackingSlipOrder[];
}

export function customerLines(customer: DocumentCustomer): string[] {
  return [
    customer.companyName ?? "",
    customer.name,
    ...addressLines(customer),
    customer.vatNumber ? `VAT number: ${customer.vatNumber}` : "",
  ];
}
