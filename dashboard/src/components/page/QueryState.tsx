//! The four states of one read, in one place: error (with Retry), loading (a skeleton), empty, data.
//! `children` only ever sees loaded data, so a panel never guards against `undefined` itself.
import type { ReactNode } from "react";
import { ErrorNote, Skeleton } from "../ui/primitives";

/** The part of a react-query result QueryState reads (a useQuery result fits). */
export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

export function SkeletonRows({ rows = 3, className = "h-8" }: { rows?: number; className?: string }) {
  return (
    <div className="space-y-3">
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders, never reordered
        <Skeleton key={i} className={`${className} w-full`} />
      ))}
    </div>
  );
}

/** The usual empty line inside a card. */
export function EmptyText({ children }: { children: ReactNode }) {
  return <p className="py-8 text-center text-sm text-gray-500">{children}</p>;
}

export function QueryState<T>({
  query,
  skeleton = <SkeletonRows />,
  isEmpty,
  empty,
  children,
}: {
  query: QueryLike<T>;
  skeleton?: ReactNode;
  /** When true for the loaded data, `empty` shows instead of `children`. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.error) return <ErrorNote error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending || query.data === undefined) return <>{skeleton}</>;
  if (isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
