import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { PROVINCES } from "../../../domain/schemas/orders";

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

const fieldClass =
  "mt-1 block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 shadow-sm focus:border-brand-700 focus:outline-2 focus:outline-brand-700/30 aria-[invalid=true]:border-red-600";
const labelClass = "block text-sm font-medium text-stone-800";

/** The shared schema names fields ("zipCode must be at most 10 characters"); people read labels. */
function readable(field: keyof DeliveryForm, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return message.startsWith(field) ? `${FIELD_LABELS[field]}${message.slice(field.length)}` : message;
}

/** Name, phone, email, address, city, province and postal code, checked by the shared deliveryInfo schema. */
export function DeliveryFields({
  register,
  errors,
}: {
  register: UseFormRegister<DeliveryForm>;
  errors: FieldErrors<DeliveryForm>;
}) {
  const invalid = (field: keyof DeliveryForm) => ({
    "aria-invalid": errors[field] ? true : undefined,
    "aria-errormessage": errors[field] ? `checkout-${field}-error` : undefined,
  });
  const error = (field: keyof DeliveryForm) => {
    const message = readable(field, errors[field]?.message);
    return message ? (
      <span id={`checkout-${field}-error`} className="mt-1 block text-sm font-normal text-red-700">
        {message}
      </span>
    ) : null;
  };
  return (
    <div className="mt-4 grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <label className={labelClass}>
          Full name
          <input className={fieldClass} autoComplete="name" {...invalid("name")} {...register("name")} />
        </label>
        {error("name")}
      </div>
      <div>
        <label className={labelClass}>
          Phone number
          <input
            className={fieldClass}
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            {...invalid("phone")}
            {...register("phone")}
          />
        </label>
        {error("phone")}
      </div>
      <div>
        <label className={labelClass}>
          Email address
          <input
            className={fieldClass}
            type="email"
            autoComplete="email"
            {...invalid("email")}
            {...register("email")}
          />
        </label>
        {error("email")}
      </div>
      <div className="sm:col-span-2">
        <label className={labelClass}>
          Street address
          <input
            className={fieldClass}
            autoComplete="street-address"
            {...invalid("address")}
            {...register("address")}
          />
        </label>
        {error("address")}
      </div>
      <div>
        <label className={labelClass}>
          City
          <input className={fieldClass} autoComplete="address-level2" {...invalid("city")} {...register("city")} />
        </label>
        {error("city")}
      </div>
      <div>
        <label className={labelClass}>
          Province
          <select
            className={fieldClass}
            autoComplete="address-level1"
            {...invalid("province")}
            {...register("province")}
          >
            <option value="">Choose a province</option>
            {PROVINCES.map((province) => (
              <option key={province} value={province}>
                {province}
              </option>
            ))}
          </select>
        </label>
        {error("province")}
      </div>
      <div>
        <label className={labelClass}>
          Postal code
          <input
            className={fieldClass}
            autoComplete="postal-code"
            inputMode="numeric"
            {...invalid("zipCode")}
            {...register("zipCode")}
          />
        </label>
        {error("zipCode")}
      </div>
    </div>
  );
}
