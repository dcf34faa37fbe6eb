import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { PROVINCES } from "../../../domain/schemas/orders";
import { readableMessage, SelectField, TextField } from "../../components/ui/text-field";

/** The delivery form as typed: the province is "" until one is chosen. */
export interface DeliveryForm {
  name: string;
  phone: string;
  email: string;
  address: string;
  city: string;
  province: string;
  zipCode: string;
}

const FIELD_LABELS: Record<keyof DeliveryForm, string> = {
  name: "Full name",
  phone: "Phone number",
  email: "Email address",
  address: "Street address",
  city: "City",
  province: "Province",
  zipCode: "Postal code",
};

/** Name, phone, email, address, city, province and postal code, checked by the shared deliveryInfo schema. */
export function DeliveryFields({
  register,
  errors,
}: {
  register: UseFormRegister<DeliveryForm>;
  errors: FieldErrors<DeliveryForm>;
}) {
  const field = (name: keyof DeliveryForm) => ({
    label: FIELD_LABELS[name],
    required: true,
    error: readableMessage(errors[name]?.message, FIELD_LABELS),
    ...register(name),
  });
  return (
    <div className="mt-4 grid gap-4 sm:grid-cols-2">
      <TextField autoComplete="name" className="sm:col-span-2" {...field("name")} />
      <TextField type="tel" autoComplete="tel" inputMode="tel" {...field("phone")} />
      <TextField type="email" autoComplete="email" {...field("email")} />
      <TextField autoComplete="street-address" className="sm:col-span-2" {...field("address")} />
      <TextField autoComplete="address-level2" {...field("city")} />
      <SelectField
        autoComplete="address-level1"
        placeholder="Choose a province"
        options={PROVINCES}
        {...field("province")}
      />
      <TextField autoComplete="postal-code" inputMode="numeric" {...field("zipCode")} />
    </div>
  );
}
