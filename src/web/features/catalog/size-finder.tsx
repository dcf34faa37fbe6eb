import { useState } from "react";
import type { SizeFinderAnswer } from "#domain/schemas/size-fit.js";
import { FIT_UNIT, type FitMeasure, gramsAsKg } from "#domain/size-fit.js";
import { Button } from "#web/components/ui/button.js";
import { TextField } from "#web/components/ui/text-field.js";
import { errorMessage } from "#web/lib/api.js";
import { useSession } from "../account";
import { type FinderQuestion, findSizes, markSizeUpPrompted, useFinderChildren } from "./api/size-finder";
import {
  FOUND_SIZES_EVENT,
  FOUND_SIZES_KEY,
  type FoundSizes,
  readFoundSizes,
  useFoundSizes,
} from "./size-finder-store";

/** Keeps a finder's answer for the visit, merged over the last one's so other products' sizes stay. */
function keepFoundSizes(found: FoundSizes) {
  const merged = { label: found.label, sizes: { ...readFoundSizes()?.sizes, ...found.sizes } };
  try {
    sessionStorage.setItem(FOUND_SIZES_KEY, JSON.stringify(merged));
  } catch {
    // Storage off or full: the menus are not preselected.
  }
  dispatchEvent(new Event(FOUND_SIZES_EVENT));
}

interface SizeFinderProps {
  measure: FitMeasure;
  /** The products to answer for: one product's page, or a category (null: every product with a guide). */
  scope: { productIds?: string[]; category?: string | null };
  /** On a product's page: its sizes, to say which one fits. */
  product?: { id: string; name: string };
}

const MEASURE_LABEL: Record<FitMeasure, string> = { weight: "Baby's weight", waist: "Waist" };

/**
 * The size finder (issue 42), loaded only when asked for: a weight (or waist), or a child the
 * parent keeps, in; each product's recommended size out, kept for this visit so the size menus
 * preselect it (size-finder-store.ts). Says "Time to move up a size?" once per child's weight.
 */
export default function SizeFinder({ measure, scope, product }: SizeFinderProps) {
  const { user } = useSession();
  const children = useFinderChildren(measure === "weight" && user ? user.id : null);
  const weighed = (children.data ?? []).filter((child) => child.weightGrams !== null);
  const [text, setText] = useState("");
  const [answer, setAnswer] = useState<SizeFinderAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sizeUp, setSizeUp] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const found = useFoundSizes();

  const ask = async (question: FinderQuestion, label: string, childId?: string) => {
    setBusy(true);
    setError(null);
    try {
      const result = await findSizes(question, scope);
      setAnswer(result);
      const sizes = Object.fromEntries(result.recommendations.flatMap((r) => (r.size ? [[r.productId, r.size]] : [])));
      keepFoundSizes({ label, sizes });
      const near = result.recommendations.find((r) => r.nearTopOf && r.size);
      if (result.sizeUpPrompt && near && childId && user) {
        setSizeUp(`${label.split(" (")[0]} is near the top of ${near.nearTopOf}: ${near.size} will fit for longer.`);
        void markSizeUpPrompted(user.id, childId).catch(() => {});
      } else setSizeUp(null);
    } catch (failure) {
      setError(errorMessage(failure, "We couldn't find sizes just now. Please try again."));
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const value = Number(text.replace(",", "."));
    if (!text.trim() || !Number.isFinite(value))
      return setError(`Enter the ${MEASURE_LABEL[measure].toLowerCase()} in ${FIT_UNIT[measure]}.`);
    void ask(measure === "weight" ? { weightKg: value } : { waistCm: value }, `${value} ${FIT_UNIT[measure]}`);
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
        <Button type="submit" disabled={busy}>
          {busy ? "Finding..." : "Find my size"}
        </Button>
      </form>
      {weighed.length > 0 && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="text-stone-700">Or use:</span>
          {weighed.map((child) => (
            <Button
              key={child.id}
              size="sm"
              variant="outline"
              disabled={busy}
              onClick={() =>
                void ask({ childId: child.id }, `${child.name} (${gramsAsKg(child.weightGrams ?? 0)} kg)`, child.id)
              }
            >
              {child.name}'s weight ({gramsAsKg(child.weightGrams ?? 0)} kg)
            </Button>
          ))}
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      {sizeUp && (
        <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <strong>Time to move up a size?</strong> {sizeUp}
        </p>
      )}
      <p role="status" className="text-sm text-stone-800">
        {answer && found ? <AnswerText answer={answer} label={found.label} product={product} /> : null}
      </p>
    </div>
  );
}

function AnswerText({
  answer,
  label,
  product,
}: {
  answer: SizeFinderAnswer;
  label: string;
  product?: { id: string; name: string };
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
      {outside > 0 ? `; ${outside} ${outside === 1 ? "doesn't" : "don't"} come in a size for that` : ""}.
    </>
  );
}
