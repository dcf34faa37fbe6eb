import { z } from "zod";
import {
  CITY_MAX,
  COMPLEX_MAX,
  DELIVERY_INSTRUCTIONS_MAX,
  PHONE_MAX,
  POSTAL_CODE_TEXT_MAX,
  STREET_ADDRESS_MAX,
  SUBURB_MAX,
} from "../limits.js";
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
  address: requiredText("address", STREET_ADDRESS_MAX),
  /** The complex or estate and the unit number, when there is one. */
  complex: optionalText("complex", COMPLEX_MAX),
  suburb: requiredText("suburb", SUBURB_MAX),
  city: requiredText("city", CITY_MAX),
  province: z.enum(PROVINCES, { message: "province must be one of the nine provinces" }),
  zipCode: requiredText("zipCode", POSTAL_CODE_TEXT_MAX).refine(
    (value) => SA_POSTAL_CODE.test(value),
    postalCodeMessage,
  ),
  deliveryInstructions: optionalText("deliveryInstructions", DELIVERY_INSTRUCTIONS_MAX),
};

/** The same fields as a profile keeps them: every one may stay empty, and is checked when given. */
export const profileAddressFields = {
  phone: optionalText("phone", PHONE_MAX),
  altPhone: addressFields.altPhone,
  address: optionalText("address", STREET_ADDRESS_MAX),
  complex: addressFields.complex,
  suburb: optionalText("suburb", SUBURB_MAX),
  city: optionalText("city", CITY_MAX),
  province: z
    .union([z.enum(PROVINCES), z.literal("")], { message: "province must be one of the nine provinces" })
    .optional()
    .transform((value) => value ?? ""),
  zipCode: optionalText("zipCode", POSTAL_CODE_TEXT_MAX).refine(
    (value) => value === "" || SA_POSTAL_CODE.test(value),
    postalCodeMessage,
  ),
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
