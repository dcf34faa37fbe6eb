import { useEffect, useState } from "react";

/**
 * False in the render that matches the server's HTML, true once mounted. A server-rendered control
 * is disabled until then: a tap made before its part of the page hydrates would otherwise do nothing.
 */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
