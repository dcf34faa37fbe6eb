import { useEffect, useRef } from "react";
import { Button } from "#web/components/ui/button.js";

/**
 * The next page comes as the shopper scrolls near the end of the grid (well before it shows); the
 * button does the same for a keyboard, a screen reader, or a browser without IntersectionObserver.
 */
export default function MoreProducts(props: {
  shown: number;
  total: number;
  loading: boolean;
  failed: boolean;
  onMore: () => void;
}) {
  const { shown, total, loading, failed, onMore } = props;
  const sentinel = useRef<HTMLDivElement>(null);
  // Observed again after every page: a grid still short of the screen's end asks for one more.
  // biome-ignore lint/correctness/useExhaustiveDependencies: shown is the trigger
  useEffect(() => {
    const element = sentinel.current;
    if (!element || failed || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onMore();
    }, NEAR_THE_END);
    observer.observe(element);
    return () => observer.disconnect();
  }, [onMore, shown, failed]);
  return (
    <div ref={sentinel} className="mt-8 flex flex-col items-center gap-2 text-center">
      <p className="text-sm text-stone-600">
        Showing {shown} of {total}
      </p>
      <Button variant="outline" onClick={onMore} disabled={loading}>
        {loading ? "Loading more..." : failed ? "Try again" : "Show more products"}
      </Button>
    </div>
  );
}

/** Start loading the next page when the grid's end is this near the screen. */
const NEAR_THE_END: IntersectionObserverInit = { rootMargin: "0px 0px 1200px 0px" };
