import type { ReactNode } from "react";
import { LoadMore } from "./load-more";
import { LoadError, LoadingRows, Panel } from "./ui";

/** What PagedList needs of an infinite query whose `select` flattens its pages into one list. */
export interface PagedQuery<T> {
  data: T[] | undefined;
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * One of the admin's paged lists (customers, e-mails, activity): loading rows, the error with a
 * retry, what to show when it is empty, then the rows in a panel and the foot that loads the next
 * page as it scrolls into view.
 */
export function PagedList<T extends { id: string | number }>({
  query,
  label,
  noun,
  empty,
  renderItem,
}: {
  query: PagedQuery<T>;
  /** The list's name, "E-mails": it also reads "Loading e-mails" and "Could not load the e-mails". */
  label: string;
  noun: readonly [one: string, many: string];
  /** Shown when the list is empty (an EmptyState). */
  empty: ReactNode;
  renderItem: (item: T) => ReactNode;
}) {
  const { data: items, isPending, isError, refetch, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const what = label.toLowerCase();
  if (isPending) return <LoadingRows label={`Loading ${what}`} />;
  if (isError || !items) return <LoadError what={`the ${what}`} onRetry={() => refetch()} />;
  if (items.length === 0) return empty;
  return (
    <>
      <Panel>
        <ul aria-label={label} className="divide-y divide-stone-100">
          {items.map((item) => (
            <li key={item.id}>{renderItem(item)}</li>
          ))}
        </ul>
      </Panel>
      <div className="mt-4">
        <LoadMore
          shown={items.length}
          noun={noun}
          hasNextPage={hasNextPage}
          isFetchingNextPage={isFetchingNextPage}
          fetchNextPage={fetchNextPage}
        />
      </div>
    </>
  );
}
