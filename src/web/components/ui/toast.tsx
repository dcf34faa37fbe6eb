import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from "react";

export interface ToastMessage {
  title: string;
  description?: string;
  variant?: "default" | "success" | "error";
}

export interface ShownToast extends ToastMessage {
  id: number;
}

/** One toast at a time (a new one replaces the old), shown 5000 ms (docs/product.md §4 and §9). */
let current: ShownToast | null = null;
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

export function toast(message: ToastMessage) {
  current = { ...message, id: nextId++ };
  emit();
}

function dismiss(id: number) {
  if (current?.id === id) {
    current = null;
    emit();
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Radix Toast loads with the first toast (or the first F8), keeping it out of the first load and
// off the main thread while the page starts; once loaded, its region answers F8 itself.
const ToastView = lazy(() => import("./toast-view"));
const NOTIFICATIONS_HOTKEY = "F8";

export function Toaster() {
  const shown = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  const [loaded, setLoaded] = useState(false);
  const [focusOnMount, setFocusOnMount] = useState(false);

  useEffect(() => {
    if (loaded) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.code !== NOTIFICATIONS_HOTKEY) return;
      setFocusOnMount(true);
      setLoaded(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [loaded]);

  if (!loaded && !shown) return null;
  return (
    <Suspense fallback={null}>
      <ToastView shown={shown} onDismiss={dismiss} focusOnMount={focusOnMount} />
    </Suspense>
  );
}
