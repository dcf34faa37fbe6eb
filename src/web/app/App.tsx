import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { Route, Router, Switch } from "wouter";
import { POLICY_ROUTE } from "#domain/policy-kinds.js";
import { Toaster } from "../components/ui/toast";
import { SessionProvider } from "../features/account";
import { CartProvider } from "../features/cart/cart-context";
import { CatalogRoutes } from "../features/catalog";
import { Layout } from "./layout";

// Everything but the storefront loads on demand, so `/` stays within its first-load budget.
const CheckoutPage = lazy(() => import("../features/checkout/checkout-page"));
const SuccessPage = lazy(() => import("../features/checkout/success-page"));
const ThankYouPage = lazy(() => import("../features/checkout/thank-you-page"));
const CancelPage = lazy(() => import("../features/checkout/cancel-page"));
const ProfilePage = lazy(() => import("../features/account/profile-page"));
const ResetPasswordPage = lazy(() => import("../features/account/reset-password-page"));
const ConfirmEmailPage = lazy(() => import("../features/account/confirm-email-page"));
const AdminGate = lazy(() => import("../features/admin/admin-gate"));
const PolicyPage = lazy(() => import("../features/content/policy-page"));
const LegalPage = lazy(() => import("../features/content/legal-page"));
const StockAlertPage = lazy(() => import("../features/catalog/stock-alert-page"));
const TrackingPage = lazy(() => import("../features/tracking/tracking-page"));
const NotFoundPage = lazy(() => import("../features/content/not-found-page"));

interface AppProps {
  /** Made by main.tsx (the browser) or entry-server.tsx (the server), holding the data the page was rendered with. */
  queryClient: QueryClient;
  /** On the server: the address being rendered (the browser reads its own). */
  ssrPath?: string;
}

export function App({ queryClient, ssrPath }: AppProps) {
  return (
    <Router ssrPath={ssrPath}>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <CartProvider>
            <Layout>
              <Suspense fallback={<PageLoading />}>
                <Switch>
                  {/* One component for the three storefront addresses: the grid stays mounted between them. */}
                  <Route path="/">
                    <CatalogRoutes />
                  </Route>
                  <Route path="/category/:category">
                    <CatalogRoutes />
                  </Route>
                  <Route path="/products/:slug">
                    <CatalogRoutes />
                  </Route>
                  <Route path="/checkout" component={CheckoutPage} />
                  <Route path="/success" component={SuccessPage} />
                  <Route path="/thank-you" component={ThankYouPage} />
                  <Route path="/cancel" component={CancelPage} />
                  <Route path="/profile" component={ProfilePage} />
                  <Route path="/reset-password" component={ResetPasswordPage} />
                  <Route path="/confirm-email" component={ConfirmEmailPage} />
                  <Route path="/admin" component={AdminGate} />
                  <Route path="/admin/orders/:id" component={AdminGate} />
                  <Route path={POLICY_ROUTE} component={PolicyPage} />
                  <Route path="/terms-and-conditions" component={PolicyPage} />
                  <Route path="/legal" component={LegalPage} />
                  <Route path="/stock-alerts/:action" component={StockAlertPage} />
                  <Route path="/orders/:id/tracking" component={TrackingPage} />
                  <Route component={NotFoundPage} />
                </Switch>
              </Suspense>
            </Layout>
            <Toaster />
          </CartProvider>
        </SessionProvider>
      </QueryClientProvider>
    </Router>
  );
}

function PageLoading() {
  return (
    <div className="mx-auto grid min-h-[50vh] max-w-6xl place-items-center px-4" role="status">
      <span className="text-stone-600">Loading...</span>
    </div>
  );
}
