import type { UseFormRegisterReturn } from "react-hook-form";
import { DELIVERY_INSTRUCTIONS_MAX } from "#domain/limits.js";
import { PROVINCES } from "#domain/schemas/address.js";
import { SelectField, TextField } from "#web/components/ui/text-field.js";

export type PersonField = "fullName" | "email";

/** Full name and e-mail, as sign-up and the profile both ask for them. */
export function PersonFields({
  register,
  error,
  emailClassName,
}: {
  register: (field: PersonField) => UseFormRegisterReturn;
  error: (field: PersonField) => string | undefined;
  emailClassName?: string;
}) {
  return (
    <>
      <TextField label="Full name" required autoComplete="name" error={error("fullName")} {...register("fullName")} />
      <TextField
        label="Email"
        type="email"
        required
        autoComplete="email"
        error={error("email")}
        className={emailClassName}
        {...register("email")}
      />
    </>
  );
}

export type ContactField = "phone" | "city" | "address" | "zipCode";

/**
 * Phone, city, address and zip code: the optional delivery details that sign-up and the profile
 * both keep (checkout prefills from them), registered with the form's own `register`.
 */
export function ContactFields({
  register,
  error,
}: {
  register: (field: ContactField) => UseFormRegisterReturn;
  error: (field: ContactField) => string | undefined;
}) {
  return (
    <>
      <TextField label="Phone" type="tel" autoComplete="tel" error={error("phone")} {...register("phone")} />
      <TextField label="City" autoComplete="address-level2" error={error("city")} {...register("city")} />
      <TextField
        label="Address"
        autoComplete="street-address"
        error={error("address")}
        className="sm:col-span-2"
        {...register("address")}
      />
      <TextField
        label="Zip code"
        inputMode="numeric"
        autoComplete="postal-code"
        error={error("zipCode")}
        {...register("zipCode")}
      />
    </>
  );
}

export type AddressField = ContactField | "altPhone" | "complex" | "suburb" | "province" | "deliveryInstructions";

/**
 * The whole delivery address the profile keeps for checkout to pre-fill, province included: each
 * optional here, checked as checkout checks it when given (src/domain/schemas/address.ts).
 */
export function AddressFields({
  register,
  error,
}: {
  register: (field: AddressField) => UseFormRegisterReturn;
  error: (field: AddressField) => string | undefined;
}) {
  return (
    <>
      <TextField label="Phone" type="tel" autoComplete="tel" error={error("phone")} {...register("phone")} />
      <TextField
        label="Other contact number"
        type="tel"
        autoComplete="tel"
        error={error("altPhone")}
        {...register("altPhone")}
      />
      <TextField
        label="Street address"
        autoComplete="address-line1"
        error={error("address")}
        className="sm:col-span-2"
        {...register("address")}
      />
      <TextField
        label="Complex or unit"
        autoComplete="address-line2"
        error={error("complex")}
        {...register("complex")}
      />
      <TextField label="Suburb" autoComplete="address-level3" error={error("suburb")} {...register("suburb")} />
      <TextField label="City" autoComplete="address-level2" error={error("city")} {...register("city")} />
      <SelectField
        label="Province"
        autoComplete="address-level1"
        placeholder="Choose a province"
        options={PROVINCES}
        error={error("province")}
        {...register("province")}
      />
      <TextField
        label="Postal code"
        inputMode="numeric"
        autoComplete="postal-code"
        maxLength={4}
        error={error("zipCode")}
        {...register("zipCode")}
      />
      <TextField
        label="Delivery instructions"
        autoComplete="off"
        maxLength={DELIVERY_INSTRUCTIONS_MAX}
        hint={`For the courier, up to ${DELIVERY_INSTRUCTIONS_MAX} characters: a gate code, "leave with security"`}
        error={error("deliveryInstructions")}
        className="sm:col-span-2"
        {...register("deliveryInstructions")}
      />
    </>
  );
}
