import type { UseFormRegisterReturn } from "react-hook-form";
import { TextField } from "../../components/ui/text-field";

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
