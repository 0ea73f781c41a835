//! Top Pages: url and views, each with a bar relative to the highest views.
import type { TopPage } from "../api/types";
import { displayPath, formatNumber, relativeWidth } from "../lib/format";
import { Card, CardBody, CardHeader, Skeleton } from "./ui/primitives";

export function TopPagesList({ pages, loading, emptyText, limit }: { pages: TopPage[] | undefined; loading?: boolean; emptyText: string; limit?: number }) {
  if (loading) {
    return (
      <div className="space-y-3">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-8 w-full" />
        ))}
      </div>
    );
  }
  const list = (pages ?? []).slice(0, limit ?? pages?.length ?? 0);
  if (list.length === 0) return <p className="py-8 text-center text-sm text-gray-500">{emptyText}</p>;
  const max = Math.max(...list.map((p) => p.views));
  return (
    <ul className="space-y-2" data-testid="top-pages">
      {list.map((page) => (
        <li key={page.url} className="relative overflow-hidden rounded-lg">
          <div className="absolute inset-y-0 left-0 rounded-lg bg-indigo-500/15" style={{ width: `${relativeWidth(page.views, max)}%` }} />
          <div className="relative flex items-center justify-between gap-4 px-3 py-2 text-sm">
            <span className="truncate text-gray-200" title={page.url}>
              {displayPath(page.url)}
            </span>
            <span className="shrink-0 font-medium tabular-nums text-white">{formatNumber(page.views)}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function TopPagesCard({ pages, loading }: { pages: TopPage[] | undefined; loading?: boolean }) {
  return (
    <Card>
      <CardHeader title="Top Pages" description="Most viewed pages" />
      <CardBody>
        <TopPagesList pages={pages} loading={loading} emptyText="No data available" />
      </CardBody>
    </Card>
  );
}
