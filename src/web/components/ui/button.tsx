import type { ComponentPropsWithRef } from "react";

export type ButtonVariant = "primary" | "secondary" | "outline" | "ghost" | "danger" | "danger-outline" | "confirm";
export type ButtonSize = "sm" | "md" | "lg" | "icon";

const base =
  "inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors duration-150 select-none " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 " +
  "disabled:cursor-not-allowed aria-disabled:cursor-not-allowed";

const variants: Record<ButtonVariant, string> = {
  primary:
    "bg-brand-700 text-white hover:bg-brand-800 active:bg-brand-900 disabled:bg-stone-300 disabled:text-stone-700",
  secondary: "bg-brand-50 text-brand-900 hover:bg-brand-100 disabled:bg-stone-100 disabled:text-stone-600",
  outline:
    "border border-stone-300 bg-white text-stone-900 hover:border-brand-700 hover:text-brand-800 disabled:text-stone-600",
  ghost: "text-stone-800 hover:bg-stone-100 hover:text-stone-950",
  danger: "bg-red-700 text-white hover:bg-red-800",
  /** The quiet Delete of a list row. */
  "danger-outline":
    "border border-red-300 bg-white text-red-700 hover:border-red-400 hover:bg-red-50 focus-visible:outline-red-700 disabled:opacity-60",
  /** A done state ("Added!"): calm, still legible while disabled. */
  confirm: "bg-brand-100 text-brand-900 disabled:cursor-default",
};

const sizes: Record<ButtonSize, string> = {
  sm: "min-h-11 px-3 text-sm",
  md: "min-h-11 px-4 text-sm",
  lg: "min-h-12 px-6 text-base",
  icon: "size-11 shrink-0",
};

/** The classes of a button, for links that look like one. */
export function buttonClass({
  variant = "primary",
  size = "md",
  className = "",
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
} = {}) {
  return `${base} ${variants[variant]} ${sizes[size]} ${className}`;
}

export interface ButtonProps extends ComponentPropsWithRef<"button"> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export function Button({ variant, size, className, type = "button", ...props }: ButtonProps) {
  return <button type={type} className={buttonClass({ variant, size, className })} {...props} />;
}
