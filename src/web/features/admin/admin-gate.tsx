import { lazy, type ReactNode, Suspense } from "react";
import { Link, useRoute } from "wouter";
import { buttonClass } from "#web/components/ui/button.js";
import { usePageTitle } from "#web/lib/use-page-title.js";
import { useSession } from "../account";
import { useSecondFactorStatus } from "./shared/api/second-factor";
import { StepUpPrompt } from "./shared/step-up";

// The admin panel's code is loaded only for admins (the server guards its data either way).
const AdminPage = lazy(() => import("./admin-page"));
const OrderPage = lazy(() => import("./orders/order-page"));

/** /admin and /admin/orders/{id}: Authentication Required for guests, Access Denied for customers, the panel for admins. */
export default function AdminGate() {
  const { user, isAdmin, restoring } = useSession();
  const [onOrder, params] = useRoute<{ id: string }>("/admin/orders/:id");
  if (!user && restoring) return <p className="mx-auto max-w-5xl px-4 py-16 text-center text-stone-600">Loading...</p>;
  if (!user) {
    return (
      <GateScreen title="Authentication Required" icon={<LockIcon />}>
        You must be logged in to access the admin panel
      </GateScreen>
    );
  }
  if (!isAdmin) {
    return (
      <GateScreen title="Access Denied" icon={<ShieldOffIcon />}>
        You do not have permission to access the admin panel
      </GateScreen>
    );
  }
  return <EnrolledAdmin onOrder={onOrder} orderId={params?.id ?? ""} />;
}

/** ADMIN_2FA=required: the panel opens once the admin's two-step sign-in is on (the server refuses otherwise). */
function EnrolledAdmin({ onOrder, orderId }: { onOrder: boolean; orderId: string }) {
  const twoFactor = useSecondFactorStatus();
  if (twoFactor.data?.required && !twoFactor.data.enabled) {
    return (
      <GateScreen
        title="Set up two-step sign-in"
        icon={<LockIcon />}
        action={
          <Link href="/profile" className={buttonClass({ size: "lg", className: "mt-8" })}>
            Go to My Account
          </Link>
        }
      >
        This shop asks every admin for a code from an authenticator app. Set it up on your profile, then come back.
      </GateScreen>
    );
  }
  return (
    <>
      <StepUpPrompt />
      <AdminPanel onOrder={onOrder} orderId={orderId} />
    </>
  );
}

function AdminPanel({ onOrder, orderId }: { onOrder: boolean; orderId: string }) {
  return (
    <Suspense
      fallback={
        <div className="mx-auto grid min-h-[50vh] max-w-6xl place-items-center px-4" role="status">
          <span className="text-stone-600">Loading the admin panel...</span>
        </div>
      }
    >
      {onOrder ? <OrderPage id={orderId} /> : <AdminPage />}
    </Suspense>
  );
}

function GateScreen({
  title,
  icon,
  children,
  action,
}: {
  title: string;
  icon: ReactNode;
  children: ReactNode;
  action?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <section className="mx-auto flex min-h-[55vh] max-w-md flex-col items-center justify-center px-4 py-16 text-center">
      <span className="grid size-16 place-items-center rounded-full bg-brand-50 text-brand-700 ring-1 ring-brand-100">
        {icon}
      </span>
      <h1 className="mt-6 text-2xl font-bold text-stone-950 sm:text-3xl">{title}</h1>
      <p className="mt-3 text-stone-700">{children}</p>
      {action ?? (
        <Link href="/" className={buttonClass({ size: "lg", className: "mt-8" })}>
          Go to Home
        </Link>
      )}
    </section>
  );
}

const iconProps = {
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 1.8,
  strokeLinecap: "round" as const,
  strokeLinejoin: "round" as const,
  focusable: false,
  className: "size-8",
};

function LockIcon() {
  return (
    <svg aria-hidden="true" {...iconProps}>
      <rect x="5" y="10.5" width="14" height="9.5" rx="2" />
      <path d="M8.5 10.5V7.5a3.5 3.5 0 0 1 7 0v3" />
      <path d="M12 14.5v2" />
    </svg>
  );
}

function ShieldOffIcon() {
  return (
    <svg aria-hidden="true" {...iconProps}>
      <path d="M12 3.5 5 6v5.5c0 4.2 2.9 7.6 7 9 4.1-1.4 7-4.8 7-9V6l-7-2.5Z" />
      <path d="m9.5 10 5 5M14.5 10l-5 5" />
    </svg>
  );
}
