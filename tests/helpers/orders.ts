import { deliveryFeeCents } from "#domain/pricing.js";
import type { LoggedInUser } from "./users.js";

/** A cart line as a test orders it: the product's id, name and price, a size and a quantity. */
export interface TestCartLine {
  id: string;
  name: string;
  priceCents: number;
  size: string;
  quantity: number;
}

/** The body the checkout page sends for these lines, its figures computed as the browser computes them. */
export function createOrderPayload(buyer: LoggedInUser, lines: readonly TestCartLine[]) {
  const subtotal = lines.reduce((sum, line) => sum + line.priceCents * line.quantity, 0);
  const fee = deliveryFeeCents(subtotal);
  return {
    subtotal: subtotal / 100,
    deliveryFee: fee / 100,
    total: (subtotal + fee) / 100,
    items: lines.map((line) => ({ id: line.id, name: line.name, size: line.size, quantity: line.quantity })),
    customerEmail: buyer.user.email,
    userId: buyer.user.id,
    deliveryInfo: {
      name: "Thandi Mokoena",
      phone: "082 555 0101",
      email: buyer.user.email,
      address: "12 Jacaranda Street",
      city: "Pretoria",
      province: "Gauteng",
      zipCode: "0181",
      suburb: "Hatfield",
    },
  };
}
