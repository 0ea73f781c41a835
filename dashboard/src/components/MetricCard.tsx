//! One metric tile: title, big value, caption (coloured by trend when it is a change caption).
import type { ReactNode } from "react";
import { Card, Skeleton, cx } from "./ui/primitives";

export interface MetricCardProps {
  title: string;
  value: ReactNode;
  caption: ReactNode;
  icon?: ReactNode;
  trend?: "up" | "down" | "flat" | "new" | "live";
  loading?: boolean;
}

export function MetricCard({ title, value, caption, icon, trend, loading }: MetricCardProps) {
  const captionTone =
    trend === "up"
      ? "text-emerald-400"
      : trend === "down"
        ? "text-red-400"
        : trend === "live"
          ? "text-sky-400"
          : "text-gray-400";
  return (
    <Card className="p-5" data-testid={`metric-${title}`}>
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-gray-400">{title}</p>
        {icon && <span className="text-gray-500 [&_svg]:h-4 [&_svg]:w-4">{icon}</span>}
      </div>
      {loading ? (
        <Skeleton className="mt-3 h-8 w-24" />
      ) : (
        <p className="mt-2 text-3xl font-semibold tracking-tight text-white" data-testid="metric-value">
          {value}
        </p>
      )}
      <p className={cx("mt-1 flex items-center gap-1.5 text-xs", captionTone)} data-testid="metric-caption">
        {trend === "live" && <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-sky-400" />}
        {caption}
      </p>
    </Card>
  );
}
