import { Tabs } from "radix-ui";
import { Suspense } from "react";
import { useSearch } from "wouter";
import { formatDate } from "#domain/sa-format.js";
import type { User } from "#domain/schemas/account.js";
import { isValidDate } from "#web/lib/format.js";
import { usePageTitle } from "#web/lib/use-page-title.js";
import { NotFoundPage } from "../content";
import { MyPlans, PlanSkipPage } from "../plans";
import { ChangePasswordSection } from "./change-password-section";
import { ChildrenSection } from "./children-section";
import { OrderHistory } from "./order-history";
import { PrivacyTab } from "./privacy-tab";
import { ProfileInformation } from "./profile-details";
import { useSession } from "./session";
import { SessionsSection } from "./sessions-section";
import { TwoFactorSection } from "./two-factor-section";

const tabTriggerClass =
  "-mb-px inline-flex min-h-11 items-center border-b-2 border-transparent px-4 text-sm font-semibold whitespace-nowrap text-stone-600 transition-colors duration-150 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 data-[state=active]:border-brand-700 data-[state=active]:text-brand-800";

/** /profile: the signed-in customer's details and orders; the 404 page for a guest (docs/product.md §2). */
export default function ProfilePage() {
  const { user, restoring } = useSession();
  // The next-box e-mail's skip link (/profile?skip=...) works without logging in.
  const skip = new URLSearchParams(useSearch()).has("skip");
  if (skip) {
    return (
      <Suspense fallback={<p className="mx-auto max-w-5xl px-4 py-16 text-center text-stone-600">Loading...</p>}>
        <PlanSkipPage />
      </Suspense>
    );
  }
  if (!user && restoring) return <p className="mx-auto max-w-5xl px-4 py-16 text-center text-stone-600">Loading...</p>;
  if (!user) return <NotFoundPage />;
  return <Profile user={user} />;
}

function Profile({ user }: { user: User }) {
  usePageTitle("My Account");
  // The next-box e-mail's "Change my plan" opens /profile?tab=plans.
  const tab = new URLSearchParams(useSearch()).get("tab") === "plans" ? "plans" : "profile";
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
            {isValidDate(user.createdAt) && <> · Customer since {formatDate(user.createdAt)}</>}
          </p>
        </div>
      </header>

      <Tabs.Root defaultValue={tab} className="mt-8">
        <Tabs.List aria-label="My account" className="flex gap-2 overflow-x-auto border-b border-stone-200">
          <Tabs.Trigger value="profile" className={tabTriggerClass}>
            Profile Information
          </Tabs.Trigger>
          <Tabs.Trigger value="orders" className={tabTriggerClass}>
            Order History
          </Tabs.Trigger>
          <Tabs.Trigger value="plans" className={tabTriggerClass}>
            My plans
          </Tabs.Trigger>
          <Tabs.Trigger value="privacy" className={tabTriggerClass}>
            Privacy
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="profile" className="pt-6 focus-visible:outline-none">
          <div className="grid gap-6">
            <ProfileInformation user={user} />
            <ChildrenSection userId={user.id} />
            <ChangePasswordSection />
            {user.isAdmin === "true" && <TwoFactorSection />}
            <SessionsSection />
          </div>
        </Tabs.Content>
        <Tabs.Content value="orders" className="pt-6 focus-visible:outline-none">
          <OrderHistory userId={user.id} />
        </Tabs.Content>
        <Tabs.Content value="plans" className="pt-6 focus-visible:outline-none">
          <Suspense fallback={<p className="text-stone-600">Loading your plans...</p>}>
            <MyPlans userId={user.id} />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content value="privacy" className="pt-6 focus-visible:outline-none">
          <PrivacyTab />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

function initials(fullName: string): string {
  const parts = fullName.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((part) => part?.charAt(0).toUpperCase() ?? "").join("") || "?";
}
