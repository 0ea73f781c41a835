//! Top Pages: url and views, each with a bar relative to the highest views; with `onFilter`, a click on a page
//! filters the screen by it (`event:page` is the path, without the query).
import type { TopPage } from "../api/types";
import type { Condition } from "../lib/filters";
import { displayPath, pagePath } from "../lib/format";
import { BarRow } from "./BreakdownPanel";
import { Card, CardBody, CardHeader, Skeleton } from "./ui/primitives";

export function TopPagesList({
  pages,
  loading,
  emptyText,
  limit,
  onFilter,
}: {
  pages: TopPage[] | undefined;
  loading?: boolean;
  emptyText: string;
  limit?: number;
  onFilter?: (c: Condition) => void;
}) {
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
        <BarRow
          key={page.url}
          label={<span className="truncate">{displayPath(page.url)}</span>}
          title={page.url}
          value={page.views}
          max={max}
          tone="bg-indigo-500/15"
          filter={onFilter ? { operator: "is", dimension: "event:page", values: [pagePath(page.url)] } : undefined}
          onFilter={onFilter}
        />
      ))}
    </ul>
  );
}

export function TopPagesCard({
  pages,
  loading,
  onFilter,
  emptyText = "No data available",
}: { pages: TopPage[] | undefined; loading?: boolean; onFilter?: (c: Condition) => void; emptyText?: string }) {
  return (
    <Card>
      <CardHeader title="Top Pages" description="Most viewed pages" />
      <CardBody>
        <TopPagesList pages={pages} loading={loading} emptyText={emptyText} onFilter={onFilter} />
      </CardBody>
    </Card>
  );
}
