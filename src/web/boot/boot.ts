/**
 * The storefront's start (docs/decisions/013-paint-first.md). The built index.html loads this small
 * classic script with `defer` instead of the app's module: it waits until the browser has painted
 * the server's HTML, then fetches the app (its entry and the entry's chunks, in parallel) and runs
 * it. A cheap phone on a slow network shows the products before the JavaScript competes with the
 * stylesheet for the connection and the main thread. A tab opened in the background gets no frames
 * until it is shown, so there the app starts at once.
 */
(() => {
  const script = document.currentScript;
  const entry = script?.getAttribute("data-entry");
  if (!entry) return;
  const chunks = script?.getAttribute("data-preload")?.split(" ").filter(Boolean) ?? [];
  let started = false;

  function start() {
    if (started) return;
    started = true;
    for (const href of chunks) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      document.head.append(link);
    }
    import(/* @vite-ignore */ entry as string).catch((error: unknown) => {
      console.error("The shop could not start", error);
    });
  }

  const serverRendered = document.getElementById("root")?.firstElementChild != null;
  const paintTiming = globalThis.PerformanceObserver?.supportedEntryTypes?.includes("paint") === true;
  if (!serverRendered || !paintTiming || document.visibilityState !== "visible") {
    // Nothing rendered on the server to paint first (checkout, profile, admin), a tab in the
    // background, or no paint timing to wait on: start now.
    start();
  } else {
    // The first contentful paint is reported once it is on the screen: the app starts after it.
    new PerformanceObserver((entries, observer) => {
      if (entries.getEntriesByName("first-contentful-paint").length === 0) return;
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
    // A tab hidden before its first paint gets none, and a paint never reported must not leave
    // the shop without its app: start then too.
    document.addEventListener("visibilitychange", start, { once: true });
    setTimeout(start, 3000);
  }
})();
