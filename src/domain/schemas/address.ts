import { z } from "zod";
import { requiredText } from "./common.js";

export const PROVINCES = [
  "Eastern Cape",
  "Free State",
  "Gauteng",
  "KwaZulu-Natal",
  "Limpopo",
  "Mpumalanga",
  "Northern Cape",
  "North West",
  "Western Cape",
] as const;

/** A South African postal code: four digits (0001 to 9999 with its leading zero). */
export const SA_POSTAL_CODE = /^\d{4}$/;
/** Delivery instructions for the courier (gate codes, "leave with security"). */
export const DELIVERY_INSTRUCTIONS_MAX = 200;
export const PHONE_MAX = 30;

const postalCodeMessage = "zipCode must be a South African postal code: four digits";

/** An optional field: trimmed, bounded, "" when left out. */
const optionalText = (field: string, max: number) =>
  z
    .string({ message: `${field} must be text` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .optional()
    .transform((value) => value ?? "");

/**
 * A South African delivery address, the one rule for the checkout form, POST /api/create-order
 * and (all optional there) the profile: street, complex or unit, suburb, city, province and a
 * four-digit postal code, the courier's instructions and another number to call.
 */
export const addressFields = {
  phone: requiredText("phone", PHONE_MAX),
  /** Another number the courier may call; checked like the phone. */
  altPhone: optionalText("altPhone", PHONE_MAX),
  address: requiredText("address", 200),
  /** The complex or estate and the unit number, when there is one. */
  complex: optionalText("complex", 120),
  suburb: requiredText("suburb", 80),
  city: requiredText("city", 80),
  province: z.enum(PROVINCES, { message: "province must be one of the nine provinces" }),
  zipCode: requiredText("zipCode", 10).refine((value) => SA_POSTAL_CODE.test(value), postalCodeMessage),
  deliveryInstructions: optionalText("deliveryInstructions", DELIVERY_INSTRUCTIONS_MAX),
};

/** The same fields as a profile keeps them: every one may stay empty, and is checked when given. */
export const profileAddressFields = {
  phone: optionalText("phone", PHONE_MAX),
  altPhone: addressFields.altPhone,
  address: optionalText("address", 200),
  complex: addressFields.complex,
  suburb: optionalText("suburb", 80),
  city: optionalText("city", 80),
  province: z
    .union([z.enum(PROVINCES), z.literal("")], { message: "province must be one of the nine provinces" })
    .optional()
    .transform((value) => value ?? ""),
  zipCode: optionalText("zipCode", 10).refine((value) => value === "" || SA_POSTAL_CODE.test(value), postalCodeMessage),
  deliveryInstructions: addressFields.deliveryInstructions,
};

/** The address lines of a delivery, for e-mails and documents: the complex and suburb only when given. */
export function addressLines(delivery: {
  address: string;
  complex: string;
  suburb: string;
  city: string;
  province: string;
  zipCode: string;
}): string[] {
  return [
    delivery.complex,
    ...delivery.address.split(/\r?\n/),
    delivery.suburb,
    `${delivery.city}, ${delivery.province}, ${delivery.zipCode}`,
  ].filter((line) => line.trim() !== "");
}
