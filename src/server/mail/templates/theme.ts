import type { CSSProperties } from "react";

/** The shop's colours (DESIGN.md, src/web/styles/app.css), written out: mail clients know no CSS variables. */
export const colour = {
  brand: "#0f766e",
  brandDark: "#134e4a",
  brandTint: "#f0fdfa",
  brandLight: "#99f6e4",
  page: "#fbf8f3",
  sand: "#f4eee4",
  border: "#e9dfcf",
  text: "#1c1917",
  muted: "#57534e",
  white: "#ffffff",
} as const;

/** The system font stack: nothing to download, and every client has one of them. */
export const fontFamily = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export const text: CSSProperties = { margin: "0 0 16px", fontSize: "16px", lineHeight: "24px", color: colour.text };

export const small: CSSProperties = { margin: "0", fontSize: "14px", lineHeight: "20px", color: colour.muted };

export const sectionHeading: CSSProperties = {
  margin: "0 0 8px",
  fontSize: "13px",
  lineHeight: "20px",
  fontWeight: 700,
  letterSpacing: "0.04em",
  textTransform: "uppercase",
  color: colour.muted,
};

export const link: CSSProperties = { color: colour.brand, textDecoration: "underline" };

/** Amounts line up in columns. */
export const tabular: CSSProperties = { fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" };
