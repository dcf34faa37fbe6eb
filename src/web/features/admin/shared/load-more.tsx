import { useEffect, useRef } from "react";
import { Button } from "#web/components/ui/button.js";

/**
 * The foot of a paged list: the next page loads by itself as it scrolls into view (an
 * IntersectionObserver on this element), or with the Load more button (keyboard users, old
 * browsers, a page that already fits the screen).
 */
export function LoadMore({
  shown,
  noun,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
}: {
  shown: number;
  /** What the list holds, one and many: ["order", "orders"]. */
  noun: readonly [one: string, many: string];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage || isFetchingNextPage || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) fetchNextPage();
      },
      { rootMargin: "600px 0px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <div ref={sentinel} className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-stone-600" aria-live="polite">
        {shown} {shown === 1 ? noun[0] : noun[1]} shown{hasNextPage ? "" : ", that is all"}
      </p>
      {hasNextPage && (
        <Button variant="outline" onClick={() => fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? "Loading..." : "Load more"}
        </Button>
      )}
    </div>
  );
}
