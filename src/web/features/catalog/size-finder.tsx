import { useState } from "react";
import type { SizeFinderAnswer } from "#domain/schemas/size-fit.js";
import { FIT_UNIT, type FitMeasure } from "#domain/size-fit.js";
import { Button } from "#web/components/ui/button.js";
import { TextField } from "#web/components/ui/text-field.js";
import { type SizeFinderState, useSizeFinder } from "./use-size-finder";

interface SizeFinderProps {
  measure: FitMeasure;
  /** The products to answer for: one product's page, or a category (null: every product with a guide). */
  scope: { productIds?: string[]; category?: string | null };
  /** On a product's page: its sizes, to say which one fits. */
  product?: { id: string; name: string };
}

const MEASURE_LABEL: Record<FitMeasure, string> = { weight: "Baby's weight", waist: "Waist" };

/**
 * The size finder on a product's page (issue 42), loaded only when asked for: a weight (or waist),
 * or a child the parent keeps, in; the product's recommended size out and chosen in its size menu.
 * On the storefront the Shop by size panel's weight field asks the same (shop-by-size.tsx).
 */
export default function SizeFinder({ measure, scope, product }: SizeFinderProps) {
  const finder = useSizeFinder(measure, scope);
  const [text, setText] = useState("");

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const value = Number(text.replace(",", "."));
    if (!text.trim() || !Number.isFinite(value))
      return finder.setError(`Enter the ${MEASURE_LABEL[measure].toLowerCase()} in ${FIT_UNIT[measure]}.`);
    void finder.ask(measure === "weight" ? { weightKg: value } : { waistCm: value }, `${value} ${FIT_UNIT[measure]}`);
  };

  return (
    <div className="grid gap-3 rounded-2xl border border-brand-100 bg-brand-50/60 p-4">
      <form onSubmit={submit} noValidate aria-label="Size finder" className="flex flex-wrap items-end gap-3">
        <TextField
          label={`${MEASURE_LABEL[measure]} (${FIT_UNIT[measure]})`}
          inputMode="decimal"
          autoComplete="off"
          value={text}
          onChange={(event) => setText(event.target.value)}
          className="w-40"
        />
        <Button type="submit" disabled={finder.busy}>
          {finder.busy ? "Finding..." : "Find my size"}
        </Button>
      </form>
      <ChildChoices
        finder={finder}
        onChoose={(child) => void finder.ask({ childId: child.id }, child.label, child.id)}
      />
      <FinderNotes finder={finder} product={product} />
    </div>
  );
}

/** "Or use: Lwazi's weight (8.7 kg)", one button a weighed child. */
export function ChildChoices({
  finder,
  onChoose,
}: {
  finder: SizeFinderState;
  onChoose: (child: SizeFinderState["weighed"][number]) => void;
}) {
  if (finder.weighed.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-stone-700">Or use:</span>
      {finder.weighed.map((child) => (
        <Button key={child.id} size="sm" variant="outline" disabled={finder.busy} onClick={() => onChoose(child)}>
          {child.name}'s weight ({child.weight})
        </Button>
      ))}
    </div>
  );
}

/** The finder's error, its "Time to move up a size?" and what it chose, each announced. */
export function FinderNotes({
  finder,
  product,
  narrowed = false,
}: {
  finder: SizeFinderState;
  product?: { id: string; name: string };
  /** The grid already keeps only the products made for the weight: those without a size for it go unsaid. */
  narrowed?: boolean;
}) {
  return (
    <>
      {finder.error && (
        <p role="alert" className="text-sm font-medium text-red-800">
          {finder.error}
        </p>
      )}
      {finder.sizeUp && (
        <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <strong>Time to move up a size?</strong> {finder.sizeUp}
        </p>
      )}
      <p role="status" className="text-sm text-stone-800">
        {finder.answer && finder.label ? (
          <AnswerText answer={finder.answer} label={finder.label} product={product} narrowed={narrowed} />
        ) : null}
      </p>
    </>
  );
}

function AnswerText({
  answer,
  label,
  product,
  narrowed,
}: {
  answer: SizeFinderAnswer;
  label: string;
  product?: { id: string; name: string } | undefined;
  narrowed: boolean;
}) {
  if (product) {
    const mine = answer.recommendations.find((r) => r.productId === product.id);
    if (!mine) return <>This product has no size guide.</>;
    if (!mine.size)
      return (
        <>
          At {label} this product is {mine.reason === "too-small" ? "too big" : "too small"}: look at our other sizes.
        </>
      );
    return (
      <>
        For {label}: <strong>{mine.size}</strong>
        {mine.reason === "between-sizes" ? " (between sizes: take the bigger one)" : ""}. We've chosen it in the size
        menu.
      </>
    );
  }
  const fitting = answer.recommendations.filter((r) => r.size).length;
  const between = answer.recommendations.filter((r) => r.reason === "between-sizes").length;
  const outside = answer.recommendations.length - fitting;
  return (
    <>
      For {label}: we've chosen the size on {fitting} product{fitting === 1 ? "" : "s"}' cards
      {between > 0 ? ` (${between} between sizes: the bigger one)` : ""}
      {outside > 0 && !narrowed ? `; ${outside} ${outside === 1 ? "doesn't" : "don't"} come in a size for that` : ""}.
    </>
  );
}
