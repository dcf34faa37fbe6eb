import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { Route, Switch } from "wouter";
import { Toaster } from "../components/ui/toast";
import { SessionProvider } from "../features/account";
import { CartProvider } from "../features/cart/cart-context";
import { StorefrontPage } from "../features/catalog/storefront-page";
import { NotFoundPage } from "../features/content/not-found-page";
import { Layout } from "./layout";
import { createQueryClient } from "./query-client";

// Everything but the storefront loads on demand, so `/` stays within its first-load budget.
const CheckoutPage = lazy(() => import("../features/checkout/checkout-page"));
const SuccessPage = lazy(() => import("../features/checkout/success-page"));
const ThankYouPage = lazy(() => import("../features/checkout/thank-you-page"));
const CancelPage = lazy(() => import("../features/checkout/cancel-page"));
const ProfilePage = lazy(() => import("../features/account/profile-page"));
const ResetPasswordPage = lazy(() => import("../features/account/reset-password-page"));
const AdminGate = lazy(() => import("../features/admin/admin-gate"));
const ReturnPolicyPage = lazy(() => import("../features/content/return-policy-page"));
const TermsPage = lazy(() => import("../features/content/terms-page"));

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <CartProvider>
          <Layout>
            <Suspense fallback={<PageLoading />}>
              <Switch>
                <Route path="/" component={StorefrontPage} />
                <Route path="/checkout" component={CheckoutPage} />
                <Route path="/success" component={SuccessPage} />
                <Route path="/thank-you" component={ThankYouPage} />
                <Route path="/cancel" component={CancelPage} />
                <Route path="/profile" component={ProfilePage} />
                <Route path="/reset-password" component={ResetPasswordPage} />
                <Route path="/admin" component={AdminGate} />
                <Route path="/admin/orders/:id" component={AdminGate} />
                <Route path="/return-policy" component={ReturnPolicyPage} />
                <Route path="/terms-and-conditions" component={TermsPage} />
                <Route component={NotFoundPage} />
              </Switch>
            </Suspense>
          </Layout>
          <Toaster />
        </CartProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}

function PageLoading() {
  return (
    <div className="mx-auto grid min-h-[50vh] max-w-6xl place-items-center px-4" role="status">
      <span className="text-stone-600">Loading...</span>
    </div>
  );
}
