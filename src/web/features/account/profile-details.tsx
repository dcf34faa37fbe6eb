import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { type ProfileInput, profileInput, type User } from "#domain/schemas/account.js";
import { Button } from "#web/components/ui/button.js";
import { readableMessage, TextField } from "#web/components/ui/text-field.js";
import { errorMessage } from "#web/lib/api.js";
import { useAddressProof, useResendAddressProof } from "./api/address-proof";
import { type ProfileValues, useUpdateProfile } from "./api/update-profile";
import { AddressFields, PersonFields } from "./form-field";
import { currentPasswordFieldError } from "./password-errors";

const PROFILE_LABELS = {
  fullName: "Full name",
  email: "Email",
  phone: "Phone",
  altPhone: "Other contact number",
  address: "Street address",
  complex: "Complex or unit",
  suburb: "Suburb",
  city: "City",
  province: "Province",
  zipCode: "Postal code",
  deliveryInstructions: "Delivery instructions",
  currentPassword: "Current password",
};

/** Addresses differing only in case reach the same mailbox: the server does not count that as a change. */
const emailChanged = (typed: string | undefined, saved: string) =>
  (typed ?? "").trim().toLowerCase() !== saved.toLowerCase();

/** The Profile Information tab: the customer's details, and the form that edits them. */
export function ProfileInformation({ user }: { user: User }) {
  const [editing, setEditing] = useState(false);
  return (
    <section
      aria-labelledby="profile-heading"
      className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="profile-heading" className="text-lg font-semibold text-stone-950">
          {editing ? "Edit your details" : "Your details"}
        </h2>
        {!editing && (
          <Button variant="outline" onClick={() => setEditing(true)}>
            Edit Profile
          </Button>
        )}
      </div>
      {!editing && <AddressNotConfirmed email={user.email} />}
      {editing ? (
        <ProfileForm user={user} onClose={() => setEditing(false)} />
      ) : (
        <dl className="mt-5 grid gap-x-6 gap-y-4 sm:grid-cols-2">
          <Detail label="Username" value={user.username} />
          <Detail label="Full name" value={user.fullName} />
          <Detail label="Email" value={user.email} />
          <Detail label="Phone" value={user.phone} />
          <Detail label="Other contact number" value={user.altPhone} />
          <Detail label="Street address" value={user.address} className="sm:col-span-2" />
          <Detail label="Complex or unit" value={user.complex} />
          <Detail label="Suburb" value={user.suburb} />
          <Detail label="City" value={user.city} />
          <Detail label="Province" value={user.province} />
          <Detail label="Postal code" value={user.zipCode} />
          <Detail label="Delivery instructions" value={user.deliveryInstructions} className="sm:col-span-2" />
        </dl>
      )}
    </section>
  );
}

/** "Not yet confirmed", with Resend, until the account follows the link mailed to its address. */
function AddressNotConfirmed({ email }: { email: string }) {
  const proof = useAddressProof();
  const resend = useResendAddressProof();
  if (!proof.data || proof.data.confirmed || proof.data.email !== email) return null;
  return (
    <div role="status" className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-stone-800">
      <p>
        <strong>Your e-mail address is not yet confirmed.</strong> Follow the link we sent to it. Until then you can
        shop as usual, but your data download holds only what this account did itself.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button variant="outline" size="sm" disabled={resend.isPending} onClick={() => resend.mutate()}>
          {resend.isPending ? "Sending..." : "Resend the link"}
        </Button>
        {resend.isSuccess && <span>{resend.data.message}</span>}
        {resend.isError && (
          <span role="alert" className="text-red-800">
            {errorMessage(resend.error, "The link could not be sent. Please try again later.")}
          </span>
        )}
      </div>
    </div>
  );
}

function Detail({ label, value, className = "" }: { label: string; value: string; className?: string }) {
  return (
    <div className={className}>
      <dt className="text-sm text-stone-600">{label}</dt>
      <dd className={`mt-0.5 break-words ${value ? "font-medium text-stone-900" : "text-stone-500 italic"}`}>
        {value || "Not given"}
      </dd>
    </div>
  );
}

function ProfileForm({ user, onClose }: { user: User; onClose: () => void }) {
  const update = useUpdateProfile(user.id, { onSuccess: onClose });
  // A new e-mail address is where reset links go next: the server asks for the password with it.
  const schema = useMemo(
    () =>
      profileInput.superRefine((values, context) => {
        if (emailChanged(values.email, user.email) && !values.currentPassword) {
          context.addIssue({
            code: "custom",
            path: ["currentPassword"],
            message: "Enter your current password to change your e-mail address.",
          });
        }
      }),
    [user.email],
  );
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<ProfileInput, unknown, ProfileValues>({
    resolver: zodResolver(schema),
    defaultValues: {
      fullName: user.fullName,
      email: user.email,
      phone: user.phone,
      altPhone: user.altPhone,
      address: user.address,
      complex: user.complex,
      suburb: user.suburb,
      city: user.city,
      province: user.province as ProfileInput["province"],
      zipCode: user.zipCode,
      deliveryInstructions: user.deliveryInstructions,
      currentPassword: "",
    },
  });
  const askPassword = emailChanged(watch("email"), user.email);
  const error = (field: keyof typeof PROFILE_LABELS) => readableMessage(errors[field]?.message, PROFILE_LABELS);

  const submit = handleSubmit(({ currentPassword, ...values }) =>
    update.mutate(emailChanged(values.email, user.email) ? { ...values, currentPassword } : values, {
      onError: (failure) => {
        const message = currentPasswordFieldError(failure);
        if (message) setError("currentPassword", { message }, { shouldFocus: true });
      },
    }),
  );
  const isSubmitting = update.isPending;

  return (
    <form onSubmit={submit} noValidate className="mt-5 grid gap-4 sm:grid-cols-2">
      <PersonFields register={register} error={error} />
      {askPassword && (
        <TextField
          label="Current password"
          type="password"
          required
          autoComplete="current-password"
          hint="Needed to change your e-mail address. We will tell your old address about the change."
          error={error("currentPassword")}
          className="sm:col-span-2"
          {...register("currentPassword", { shouldUnregister: true })}
        />
      )}
      <AddressFields register={register} error={error} />
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : "Save Changes"}
        </Button>
        <Button variant="outline" onClick={onClose} disabled={isSubmitting}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
