import type { DeliveryInfo } from "#domain/schemas/orders.js";

/**
 * The delivery address as an order and a plan keep it: ten columns of the same names in both
 * tables (platform/db/schema.ts). Every copy and every reading of it goes through this file, so a
 * new field is added here, in the schema and in the wire's `deliveryInfo` (src/domain/schemas).
 */
export const DELIVERY_ADDRESS_COLUMNS = [
  "deliveryName",
  "deliveryPhone",
  "deliveryAddress",
  "deliveryCity",
  "deliveryProvince",
  "deliveryZipCode",
  "deliverySuburb",
  "deliveryComplex",
  "deliveryInstructions",
  "deliveryAltPhone",
] as const;

export type DeliveryAddress = Record<(typeof DELIVERY_ADDRESS_COLUMNS)[number], string>;

/** The address the shopper gave at checkout (the wire's deliveryInfo), as the columns keep it. */
export function storedAddress(info: DeliveryInfo): DeliveryAddress {
  return {
    deliveryName: info.name,
    deliveryPhone: info.phone,
    deliveryAddress: info.address,
    deliveryCity: info.city,
    deliveryProvince: info.province,
    deliveryZipCode: info.zipCode,
    deliverySuburb: info.suburb,
    deliveryComplex: info.complex,
    deliveryInstructions: info.deliveryInstructions,
    deliveryAltPhone: info.altPhone,
  };
}

/** The ten columns of a row that keeps them (an order, a plan), for another such row. */
export function copyAddress(row: DeliveryAddress): DeliveryAddress {
  return Object.fromEntries(DELIVERY_ADDRESS_COLUMNS.map((column) => [column, row[column]])) as DeliveryAddress;
}

/** The address as a document or an e-mail prints it (documents/types.ts, mail/messages.ts). */
export function printedAddress(row: DeliveryAddress) {
  return {
    name: row.deliveryName,
    phone: row.deliveryPhone,
    address: row.deliveryAddress,
    city: row.deliveryCity,
    province: row.deliveryProvince,
    zipCode: row.deliveryZipCode,
    suburb: row.deliverySuburb,
    complex: row.deliveryComplex,
    deliveryInstructions: row.deliveryInstructions,
    altPhone: row.deliveryAltPhone,
  };
}
