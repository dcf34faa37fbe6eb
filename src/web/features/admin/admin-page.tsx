import { Tabs } from "radix-ui";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link, useSearch } from "wouter";
import { buttonClass } from "#web/components/ui/button.js";
import { usePageTitle } from "#web/lib/use-page-title.js";
import { CategoriesTab } from "./catalog/categories-tab";
import { ProductsTab } from "./catalog/products-tab";
import { UsersTab } from "./customers/users-tab";
import { DashboardTab } from "./dashboard/dashboard-tab";
import { OrdersTab } from "./orders/orders-tab";
import { PaymentVerificationTab } from "./payments/payment-verification-tab";
import { LoadingRows } from "./shared/ui";

// Read now and then, so its code loads when the tab is first opened.
const EmailsTab = lazy(() => import("./emails/emails-tab"));
const ActivityTab = lazy(() => import("./activity/activity-tab"));
const VatTab = lazy(() => import("./payments/vat-tab"));
const RequestsTab = lazy(() => import("./orders/requests-tab"));
const PromotionsTab = lazy(() => import("./catalog/promotions-tab"));
const LaunchTab = lazy(() => import("./launch/launch-tab"));
const PlansTab = lazy(() => import("./plans/plans-tab"));
const DeliveryTab = lazy(() => import("./delivery/delivery-tab"));

const TABS = [
  { value: "dashboard", label: "Dashboard", Panel: DashboardTab },
  { value: "payments", label: "Payment Verification", Panel: PaymentVerificationTab },
  { value: "orders", label: "Orders", Panel: OrdersTab },
  { value: "requests", label: "Requests", Panel: RequestsTab },
  { value: "products", label: "Products", Panel: ProductsTab },
  { value: "categories", label: "Categories", Panel: CategoriesTab },
  { value: "users", label: "Users", Panel: UsersTab },
  { value: "plans", label: "Plans", Panel: PlansTab },
  { value: "promotions", label: "Promotions", Panel: PromotionsTab },
  { value: "delivery", label: "Delivery", Panel: DeliveryTab },
  { value: "vat", label: "VAT", Panel: VatTab },
  { value: "emails", label: "Emails", Panel: EmailsTab },
  { value: "activity", label: "Activity", Panel: ActivityTab },
  { value: "launch", label: "Before you open", Panel: LaunchTab },
] as const;

/** The /admin screen. Loaded lazily by the admin gate, which shows it to admins only. */
export default function AdminPage() {
  // ?tab=orders: where the order page's "Back to orders" returns.
  const wanted = new URLSearchParams(useSearch()).get("tab");
  const known = TABS.some((entry) => entry.value === wanted);
  const [tab, setTab] = useState<string>(known ? (wanted as string) : "dashboard");
  // A link within the panel (the dashboard's "Needs attention") changes ?tab= without remounting the page.
  useEffect(() => {
    if (known && wanted) setTab(wanted);
  }, [known, wanted]);
  usePageTitle("Admin Panel");
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-stone-900">Admin Panel</h1>
          <p className="text-sm text-stone-600">Orders, payments, the catalogue and customers</p>
        </div>
        <Link href="/" className={buttonClass({ variant: "outline" })}>
          Exit Admin
        </Link>
      </div>

      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List
          aria-label="Admin sections"
          className="-mx-4 mb-5 flex gap-1 overflow-x-auto border-b border-stone-200 px-4 [scrollbar-width:thin] sm:mx-0 sm:px-0"
        >
          {TABS.map(({ value, label }) => (
            <Tabs.Trigger
              key={value}
              value={value}
              className="-mb-px min-h-11 shrink-0 border-b-2 border-transparent px-3 text-sm font-semibold whitespace-nowrap text-stone-600 hover:text-stone-900 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700 data-[state=active]:border-brand-700 data-[state=active]:text-brand-800"
            >
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TABS.map(({ value, Panel }) => (
          <Tabs.Content key={value} value={value} className="focus-visible:outline-none">
            <Suspense fallback={<LoadingRows label={`Loading ${value}`} />}>
              <Panel />
            </Suspense>
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </div>
  );
}
