import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { DELIVERY_INSTRUCTIONS_MAX } from "#domain/limits.js";
import { PROVINCES } from "#domain/schemas/address.js";
import { readableMessage, SelectField, TextField } from "#web/components/ui/text-field.js";

/** The delivery form as typed: the province is "" until one is chosen. */
export interface DeliveryForm {
  name: string;
  phone: string;
  email: string;
  altPhone: string;
  address: string;
  complex: string;
  suburb: string;
  city: string;
  province: string;
  zipCode: string;
  /** For the courier: gate codes, "leave with security". */
  deliveryInstructions: string;
  /** A business buyer's, both optional: printed on the tax invoice. */
  companyName: string;
  vatNumber: string;
}

const FIELD_LABELS: Record<keyof DeliveryForm, string> = {
  name: "Full name",
  phone: "Phone number",
  email: "Email address",
  altPhone: "Other contact number",
  address: "Street address",
  complex: "Complex or unit",
  suburb: "Suburb",
  city: "City",
  province: "Province",
  zipCode: "Postal code",
  deliveryInstructions: "Delivery instructions",
  companyName: "Company name",
  vatNumber: "VAT number",
};

/** The fields every order needs; the business ones may stay empty. */
export const REQUIRED_DELIVERY_FIELDS = [
  "name",
  "phone",
  "email",
  "address",
  "suburb",
  "city",
  "province",
  "zipCode",
] as const;

/**
 * Name, phone, email and the South African address (src/domain/schemas/address.ts), checked by the
 * shared deliveryInfo schema: the complex, other number and instructions may stay empty.
 */
export function DeliveryFields({
  register,
  errors,
}: {
  register: UseFormRegister<DeliveryForm>;
  errors: FieldErrors<DeliveryForm>;
}) {
  const field = (name: keyof DeliveryForm, required = true) => ({
    label: FIELD_LABELS[name],
    required,
    error: readableMessage(errors[name]?.message, FIELD_LABELS),
    ...register(name),
  });
  return (
    <div className="mt-4 grid gap-4 sm:grid-cols-2">
      <TextField autoComplete="name" className="sm:col-span-2" {...field("name")} />
      <TextField type="email" autoComplete="email" {...field("email")} />
      <TextField type="tel" autoComplete="tel" inputMode="tel" {...field("phone")} />
      <TextField autoComplete="address-line1" className="sm:col-span-2" {...field("address")} />
      <TextField
        autoComplete="address-line2"
        hint="Complex or estate name and unit number"
        {...field("complex", false)}
      />
      <TextField autoComplete="address-level3" {...field("suburb")} />
      <TextField autoComplete="address-level2" {...field("city")} />
      <SelectField
        autoComplete="address-level1"
        placeholder="Choose a province"
        options={PROVINCES}
        {...field("province")}
      />
      <TextField autoComplete="postal-code" inputMode="numeric" maxLength={4} hint="4 digits" {...field("zipCode")} />
      <TextField type="tel" autoComplete="tel" inputMode="tel" {...field("altPhone", false)} />
      <TextField
        autoComplete="off"
        maxLength={DELIVERY_INSTRUCTIONS_MAX}
        hint={`For the courier, up to ${DELIVERY_INSTRUCTIONS_MAX} characters: a gate code, "leave with security"`}
        className="sm:col-span-2"
        {...field("deliveryInstructions", false)}
      />
      <fieldset className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
        <legend className="mb-1 text-sm font-semibold text-stone-800">
          Buying for a business? <span className="font-normal text-stone-600">(optional, printed on your invoice)</span>
        </legend>
        <TextField autoComplete="organization" {...field("companyName", false)} />
        <TextField
          inputMode="numeric"
          autoComplete="off"
          hint="10 digits, starting with 4"
          {...field("vatNumber", false)}
        />
      </fieldset>
    </div>
  );
}
