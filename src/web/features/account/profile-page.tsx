import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { Tabs } from "radix-ui";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "wouter";
import type { z } from "zod";
import { formatRand, formatRandText, parseRandToCents } from "../../../domain/money";
import { ORDER_STATUS_LABELS, type OrderStatus, orderNumber } from "../../../domain/order-status";
import { type ProfileInput, profileInput, type User } from "../../../domain/schemas/account";
import type { Order } from "../../../domain/schemas/orders";
import { useSession } from "../../app/session";
import { Button, buttonClass } from "../../components/ui/button";
import { toast } from "../../components/ui/toast";
import { apiRequest } from "../../lib/api";
import { NotFoundPage } from "../content/not-found-page";
import { usePageTitle } from "../content/static-page";
import { ContactFields, messageOf, readableMessage, TextField } from "./form-field";

const PROFILE_LABELS = {
  fullName: "Full name",
  email: "Email",
  phone: "Phone",
  address: "Address",
  city: "City",
  zipCode: "Zip code",
};

const tabTriggerClass =
  "-mb-px inline-flex min-h-11 items-center border-b-2 border-transparent px-4 text-sm font-semibold whitespace-nowrap text-stone-600 transition-colors duration-150 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 data-[state=active]:border-brand-700 data-[state=active]:text-brand-800";

const dateFormat = new Intl.DateTimeFormat("en-ZA", { day: "numeric", month: "long", year: "numeric" });
const dateTimeFormat = new Intl.DateTimeFormat("en-ZA", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** /profile: the signed-in customer's details and orders; the 404 page for a guest (SPEC.md section 2). */
export default function ProfilePage() {
  const { user, restoring } = useSession();
  if (!user && restoring) return <p className="mx-auto max-w-5xl px-4 py-16 text-center text-stone-600">Loading...</p>;
  if (!user) return <NotFoundPage />;
  return <Profile user={user} />;
}

function Profile({ user }: { user: User }) {
  usePageTitle("My Account");
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <header className="flex items-center gap-4">
        <span
          aria-hidden="true"
          className="grid size-14 shrink-0 place-items-center rounded-full bg-brand-50 text-xl font-bold text-brand-800 ring-1 ring-brand-100"
        >
          {initials(user.fullName)}
        </span>
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-bold text-stone-950 sm:text-3xl">{user.fullName}</h1>
          <p className="text-sm text-stone-600">
            @{user.username}
            {validDate(user.createdAt) && <> · Customer since {dateFormat.format(new Date(user.createdAt))}</>}
          </p>
        </div>
      </header>

      <Tabs.Root defaultValue="profile" className="mt-8">
        <Tabs.List aria-label="My account" className="flex gap-2 overflow-x-auto border-b border-stone-200">
          <Tabs.Trigger value="profile" className={tabTriggerClass}>
            Profile Information
          </Tabs.Trigger>
          <Tabs.Trigger value="orders" className={tabTriggerClass}>
            Order History
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="profile" className="pt-6 focus-visible:outline-none">
          <ProfileInformation user={user} />
        </Tabs.Content>
        <Tabs.Content value="orders" className="pt-6 focus-visible:outline-none">
          <OrderHistory userId={user.id} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

function ProfileInformation({ user }: { user: User }) {
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
  const { signIn } = useSession();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ProfileInput, unknown, z.output<typeof profileInput>>({
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

  const submit = handleSubmit(async (values) => {
    try {
      const updated = await apiRequest<User>("PUT", `/api/users/${user.id}`, values);
      signIn(updated);
      onClose();
      toast({ title: "Profile updated successfully!", variant: "success" });
    } catch (failure) {
      toast({ title: "Update Failed", description: messageOf(failure, "Failed to update profile"), variant: "error" });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="mt-5 grid gap-4 sm:grid-cols-2">
      <TextField label="Full name" required autoComplete="name" error={error("fullName")} {...register("fullName")} />
      <TextField
        label="Email"
        type="email"
        required
        autoComplete="email"
        error={error("email")}
        {...register("email")}
      />
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

function OrderHistory({ userId }: { userId: string }) {
  const { data, isPending, isError, error, refetch, isFetching } = useQuery<Order[]>({
    queryKey: ["/api/users", userId, "orders"],
  });

  if (isPending) {
    return (
      <div role="status" aria-live="polite" className="grid gap-4">
        <span className="sr-only">Loading your orders...</span>
        {[0, 1].map((key) => (
          <div
            key={key}
            aria-hidden="true"
            className="h-40 animate-pulse rounded-2xl border border-stone-200 bg-white"
          />
        ))}
      </div>
    );
  }
  if (isError) {
    return (
      <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-5 text-red-950">
        <p className="font-semibold">We couldn't load your orders.</p>
        <p className="mt-1 text-sm">{error.message}</p>
        <Button variant="outline" className="mt-4" disabled={isFetching} onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (data.length === 0) {
    return (
      <div className="rounded-2xl border border-dashed border-stone-300 bg-white px-5 py-10 text-center">
        <h2 className="text-lg font-semibold text-stone-950">No orders yet</h2>
        <p className="mt-1 text-stone-600">When you place an order, you can follow it here.</p>
        <Link href="/" className={buttonClass({ className: "mt-5" })}>
          Start Shopping
        </Link>
      </div>
    );
  }

  const newestFirst = [...data].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  return (
    <section aria-label="Your orders">
      <p className="mb-4 text-sm text-stone-600">
        {newestFirst.length} {newestFirst.length === 1 ? "order" : "orders"}, newest first
      </p>
      <ol className="grid gap-4">
        {newestFirst.map((order) => (
          <li key={order.id}>
            <OrderCard order={order} />
          </li>
        ))}
      </ol>
    </section>
  );
}

const statusClass: Record<OrderStatus, string> = {
  pending: "bg-amber-100 text-amber-900 ring-amber-300",
  completed: "bg-blue-100 text-blue-900 ring-blue-300",
  processed: "bg-green-100 text-green-900 ring-green-300",
  cancelled: "bg-stone-100 text-stone-800 ring-stone-300",
};

function OrderCard({ order }: { order: Order }) {
  const headingId = `order-${order.id}`;
  const deliveryCents = parseRandToCents(order.deliveryFee) ?? 0;
  return (
    <article aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id={headingId} className="font-semibold text-stone-950">
            Order #{orderNumber(order.id)}
          </h3>
          <p className="text-sm text-stone-600">
            Placed <time dateTime={order.createdAt}>{dateTimeFormat.format(new Date(order.createdAt))}</time>
          </p>
        </div>
        <span
          className={`inline-flex items-center rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ring-inset ${statusClass[order.status]}`}
        >
          {ORDER_STATUS_LABELS[order.status]}
        </span>
      </header>

      <ul className="mt-4 divide-y divide-stone-100 border-y border-stone-100">
        {order.items.map((item) => (
          <li key={`${item.name}|${item.size}|${item.price}`} className="flex justify-between gap-4 py-2.5 text-sm">
            <span className="min-w-0">
              <span className="font-medium text-stone-900">{item.name}</span>
              <span className="block text-stone-600">
                {item.size} · {item.quantity} × {formatRandText(item.price)}
              </span>
            </span>
            <span className="tabular shrink-0 font-medium text-stone-900">
              {formatRand((parseRandToCents(item.price) ?? 0) * item.quantity)}
            </span>
          </li>
        ))}
      </ul>

      <dl className="tabular mt-3 grid gap-1 text-sm">
        <div className="flex justify-between text-stone-700">
          <dt>Subtotal</dt>
          <dd>{formatRandText(order.subtotal)}</dd>
        </div>
        <div className="flex justify-between text-stone-700">
          <dt>Delivery</dt>
          <dd>{deliveryCents === 0 ? "Free" : formatRandText(order.deliveryFee)}</dd>
        </div>
        <div className="flex justify-between text-base font-semibold text-stone-950">
          <dt>Total</dt>
          <dd>{formatRandText(order.total)}</dd>
        </div>
      </dl>
      <p className="mt-3 text-sm text-stone-600">
        Delivering to {order.deliveryName}, {order.deliveryCity}, {order.deliveryProvince}
      </p>
    </article>
  );
}

function initials(fullName: string): string {
  const parts = fullName.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((part) => part?.charAt(0).toUpperCase() ?? "").join("") || "?";
}

function validDate(iso: string): boolean {
  return !Number.isNaN(Date.parse(iso));
}
