import { Dialog as RadixDialog } from "radix-ui";
import { type ReactNode, useRef } from "react";
import { CloseIcon } from "./icons";

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /**
   * Read by screen readers when the dialog opens; shown under the title unless `descriptionHidden`.
   * Leave it out when the body itself starts with the describing text (`describedBy` points at it).
   */
  description?: ReactNode;
  describedBy?: string;
  descriptionHidden?: boolean;
  children: ReactNode;
  /** Width: "md" for text, "lg" for the product detail. */
  size?: "md" | "lg";
  /** Classes of the title (e.g. larger for the product name). */
  titleClassName?: string;
}

/**
 * A modal dialog on Radix Dialog: focus is trapped inside and returns to where it was,
 * Escape and the overlay close it, the page behind does not scroll.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  describedBy,
  descriptionHidden = false,
  children,
  size = "md",
  titleClassName = "text-xl font-bold text-stone-950",
}: DialogProps) {
  // Radix returns focus to a Dialog.Trigger; these dialogs are opened from anywhere (a card, the
  // header, the mobile menu), so focus goes back to whatever had it when the dialog opened.
  const returnFocus = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-stone-950/50" />
        <RadixDialog.Content
          aria-describedby={description === undefined ? describedBy : undefined}
          onOpenAutoFocus={() => {
            returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            const target = returnFocus.current;
            returnFocus.current = null;
            if (target?.isConnected) target.focus({ preventScroll: true });
          }}
          className={`dialog-content fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-1.5rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto overscroll-contain rounded-2xl bg-white shadow-2xl focus:outline-none ${
            size === "lg" ? "max-w-3xl" : "max-w-lg"
          }`}
        >
          <div className="sticky top-0 z-10 flex items-start justify-between gap-4 border-b border-stone-100 bg-white px-5 py-4 sm:px-6">
            <div className="min-w-0">
              <RadixDialog.Title className={titleClassName}>{title}</RadixDialog.Title>
              {description !== undefined && (
                <RadixDialog.Description className={descriptionHidden ? "sr-only" : "mt-1 text-sm text-stone-600"}>
                  {description}
                </RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close
              aria-label="Close"
              className="-mr-2 -mt-1 grid size-11 shrink-0 place-items-center rounded-lg text-stone-600 hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              <CloseIcon />
            </RadixDialog.Close>
          </div>
          <div className="px-5 py-5 sm:px-6">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
