import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import "./lib/yield-to-browser";
import { App } from "./app/App";
import { createQueryClient } from "./app/query-client";
import { isOverGrid, markProductMissing } from "./features/catalog";
import { fillQueryCache, readPageData } from "./lib/page-data";
import { markServerRendered } from "./lib/server-rendered";
import "./styles/app.css";

const root = document.getElementById("root");
if (root) {
  const queryClient = createQueryClient();
  // A reload of a product opened over the grid shows the product's own page, as the server rendered it.
  if (isOverGrid(window.history.state)) window.history.replaceState(null, "");
  const app = (
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>
  );
  const pageData = readPageData();
  if (pageData && root.firstElementChild) {
    fillQueryCache(queryClient, pageData);
    if (pageData.missingProduct) markProductMissing(queryClient, window.location.pathname);
    markServerRendered();
    // As a transition, hydration yields to the browser every few milliseconds instead of holding the
    // main thread for the whole page (the server's HTML is already on screen meanwhile).
    startTransition(() => {
      hydrateRoot(root, app);
    });
  } else {
    createRoot(root).render(app);
  }
}
