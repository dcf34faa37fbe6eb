import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { type ProfileInput, profileInput, type User } from "../../../domain/schemas/account";
import { Button } from "../../components/ui/button";
import { readableMessage } from "../../components/ui/text-field";
import { type ProfileValues, useUpdateProfile } from "./api/update-profile";
import { ContactFields, PersonFields } from "./form-field";

const PROFILE_LABELS = {
  fullName: "Full name",
  email: "Email",
  phone: "Phone",
  address: "Address",
  city: "City",
  zipCode: "Zip code",
};

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
      {editing ? (
        <ProfileForm user={user} onClose={() => setEditing(false)} />
      ) : (
        <dl className="mt-5 grid gap-x-6 gap-y-4 sm:grid-cols-2">
          <Detail label="Username" value={user.username} />
          <Detail label="Full name" value={user.fullName} />
          <Detail label="Email" value={user.email} />
          <Detail label="Phone" value={user.phone} />
          <Detail label="Address" value={user.address} className="sm:col-span-2" />
          <Detail label="City" value={user.city} />
          <Detail label="Zip code" value={user.zipCode} />
        </dl>
      )}
    </section>
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
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ProfileInput, unknown, ProfileValues>({
    resolver: zodResolver(profileInput),
    defaultValues: {
      fullName: user.fullName,
      email: user.email,
      phone: user.phone,
      address: user.address,
      city: user.city,
      zipCode: user.zipCode,
    },
  });
  const error = (field: keyof typeof PROFILE_LABELS) => readableMessage(errors[field]?.message, PROFILE_LABELS);

  const submit = handleSubmit((values) => update.mutate(values));
  const isSubmitting = update.isPending;

  return (
    <form onSubmit={submit} noValidate className="mt-5 grid gap-4 sm:grid-cols-2">
      <PersonFields register={register} error={error} />
      <ContactFields register={register} error={error} />
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
