/**
 * Whether this page's HTML was rendered by the server (docs/decisions/012-server-rendering.md).
 * Then the first render in the browser must match it: what only the browser knows (the stored
 * cart, the signed-in user's id) is read after hydration, not during the first render.
 */
let serverRendered = false;

export function markServerRendered() {
  serverRendered = true;
}

export function isServerRendered(): boolean {
  return serverRendered;
}
