import { Toast as RadixToast } from "radix-ui";
import { useEffect, useRef } from "react";
import { CheckIcon, CloseIcon } from "./icons";
import type { ShownToast, ToastMessage } from "./toast";

const variantClass: Record<NonNullable<ToastMessage["variant"]>, string> = {
  default: "border-stone-200 bg-white text-stone-900",
  success: "border-brand-200 bg-white text-stone-900",
  error: "border-red-300 bg-red-50 text-red-950",
};

interface ToastViewProps {
  shown: ShownToast | null;
  onDismiss: (id: number) => void;
  /** Loaded by an F8 press: do what F8 does once the region exists. */
  focusOnMount: boolean;
}

/** The Radix Toast region and the one toast shown (see toast.tsx). */
export default function ToastView({ shown, onDismiss, focusOnMount }: ToastViewProps) {
  const viewport = useRef<HTMLOListElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on mount
  useEffect(() => {
    if (focusOnMount) viewport.current?.focus();
  }, []);
  return (
    <RadixToast.Provider duration={5000} swipeDirection="right">
      {shown && (
        <RadixToast.Root
          key={shown.id}
          defaultOpen
          type={shown.variant === "error" ? "foreground" : "background"}
          onOpenChange={(open) => {
            if (!open) onDismiss(shown.id);
          }}
          className={`toast relative flex gap-3 rounded-xl border p-4 pr-12 shadow-lg ${variantClass[shown.variant ?? "default"]}`}
        >
          {shown.variant === "success" && (
            <span className="mt-0.5 grid size-6 shrink-0 place-items-center rounded-full bg-brand-700 text-white">
              <CheckIcon className="size-4" />
            </span>
          )}
          {shown.variant === "error" && (
            <span
              aria-hidden="true"
              className="mt-0.5 grid size-6 shrink-0 place-items-center rounded-full bg-red-700 text-sm font-bold text-white"
            >
              !
            </span>
          )}
          <div className="grid gap-1">
            <RadixToast.Title className="text-sm font-semibold">{shown.title}</RadixToast.Title>
            {shown.description && (
              <RadixToast.Description className="text-sm text-stone-700">{shown.description}</RadixToast.Description>
            )}
          </div>
          <RadixToast.Close
            aria-label="Dismiss notification"
            className="absolute top-2 right-2 grid size-9 place-items-center rounded-md text-stone-600 hover:bg-black/5 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            <CloseIcon className="size-4" />
          </RadixToast.Close>
        </RadixToast.Root>
      )}
      <RadixToast.Viewport
        ref={viewport}
        hotkey={["F8"]}
        className="fixed right-0 bottom-0 z-[100] flex w-full max-w-sm flex-col gap-2 p-4 outline-none"
      />
    </RadixToast.Provider>
  );
}
