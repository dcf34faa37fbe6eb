import { useState } from "react";
import type { SizeFinderAnswer } from "#domain/schemas/size-fit.js";
import { gramsAsKg } from "#domain/size-fit.js";
import { errorMessage } from "#web/lib/api.js";
import { useSession } from "../account";
import { type FinderQuestion, findSizes, markSizeUpPrompted, useFinderChildren } from "./api/size-finder";
import { FOUND_SIZES_EVENT, FOUND_SIZES_KEY, type FoundSizes, readFoundSizes } from "./size-finder-store";

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

/** A child the parent keeps with a weight: "Lwazi (8.7 kg)". */
export interface WeighedChild {
  id: string;
  name: string;
  weightGrams: number;
  /** The weight as people say it: "8.7 kg". */
  weight: string;
  /** What the answer is said for: "Lwazi (8.7 kg)". */
  label: string;
}

export interface SizeFinderState {
  /** The parent's children with a weight (none when logged out, or for a waist). */
  weighed: WeighedChild[];
  ask: (question: FinderQuestion, label: string, childId?: string) => Promise<void>;
  answer: SizeFinderAnswer | null;
  /** What the last answer was for, as people say it: "7.5 kg". */
  label: string | null;
  error: string | null;
  setError: (error: string | null) => void;
  /** "Lwazi is near the top of Size 3: Size 4 will fit for longer.", once per child's weight. */
  sizeUp: string | null;
  busy: boolean;
  clear: () => void;
}

/**
 * The size finder's asking (issue 42), shared by the product page's finder and the Shop by size
 * panel's weight field: a weight, a waist or a kept child in; each product's size out, kept for the
 * visit so the size menus preselect it (size-finder-store.ts); "Time to move up a size?" once per
 * child's weight, the server remembering that it was said.
 */
export function useSizeFinder(
  measure: "weight" | "waist",
  scope: { productIds?: string[]; category?: string | null },
): SizeFinderState {
  const { user } = useSession();
  const children = useFinderChildren(measure === "weight" && user ? user.id : null);
  const weighed = (children.data ?? []).flatMap((child) =>
    child.weightGrams === null
      ? []
      : [
          {
            id: child.id,
            name: child.name,
            weightGrams: child.weightGrams,
            weight: `${gramsAsKg(child.weightGrams)} kg`,
            label: `${child.name} (${gramsAsKg(child.weightGrams)} kg)`,
          },
        ],
  );
  const [answer, setAnswer] = useState<SizeFinderAnswer | null>(null);
  const [label, setLabel] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sizeUp, setSizeUp] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const ask = async (question: FinderQuestion, asked: string, childId?: string) => {
    setBusy(true);
    setError(null);
    try {
      const result = await findSizes(question, scope);
      setAnswer(result);
      setLabel(asked);
      const sizes = Object.fromEntries(result.recommendations.flatMap((r) => (r.size ? [[r.productId, r.size]] : [])));
      keepFoundSizes({ label: asked, sizes });
      const near = result.recommendations.find((r) => r.nearTopOf && r.size);
      if (result.sizeUpPrompt && near && childId && user) {
        setSizeUp(`${asked.split(" (")[0]} is near the top of ${near.nearTopOf}: ${near.size} will fit for longer.`);
        void markSizeUpPrompted(user.id, childId).catch(() => {});
      } else setSizeUp(null);
    } catch (failure) {
      setError(errorMessage(failure, "We couldn't find sizes just now. Please try again."));
    } finally {
      setBusy(false);
    }
  };

  const clear = () => {
    setAnswer(null);
    setLabel(null);
    setSizeUp(null);
    setError(null);
  };

  return { weighed, ask, answer, label, error, setError, sizeUp, busy, clear };
}
