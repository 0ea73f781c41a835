//! Traffic Overview chart (recharts): visitors and page views per day, or per hour for a one-day period (its
//! points are then hours, `2026-11-15T13:00:00Z`), with the compared period's points overlaid as dashed lines
//! when the screen compares (point for point: the earlier period's first day under this one's). Loaded lazily
//! with recharts.
import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TimeseriesPoint } from "../api/types";
import { pointLabel } from "../lib/time";

export default function TrafficChart({ points, comparison }: { points: TimeseriesPoint[]; comparison?: TimeseriesPoint[] | null }) {
  const data = points.map((p, i) => ({
    ...p,
    label: pointLabel(p.date),
    earlierVisitors: comparison?.[i]?.visitors,
    earlierPageViews: comparison?.[i]?.pageViews,
  }));
  const compared = comparison !== undefined && comparison !== null;
  return (
    <div className="h-72 w-full" data-testid="traffic-chart" data-points={data.length} data-compared={compared ? comparison.length : 0}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
          <defs>
            <linearGradient id="pv" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="#818cf8" stopOpacity={0.35} />
              <stop offset="100%" stopColor="#818cf8" stopOpacity={0} />
            </linearGradient>
            <linearGradient id="vis" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="#38bdf8" stopOpacity={0.35} />
              <stop offset="100%" stopColor="#38bdf8" stopOpacity={0} />
            </linearGradient>
          </defs>
          <CartesianGrid stroke="#1f2937" vertical={false} />
          <XAxis dataKey="label" stroke="#6b7280" fontSize={12} tickLine={false} axisLine={false} minTickGap={24} />
          <YAxis stroke="#6b7280" fontSize={12} tickLine={false} axisLine={false} allowDecimals={false} />
          <Tooltip
            contentStyle={{ background: "#111827", border: "1px solid #374151", borderRadius: 8, color: "#f3f4f6" }}
            labelStyle={{ color: "#9ca3af" }}
          />
          <Area isAnimationActive={false} type="monotone" dataKey="pageViews" name="Page views" stroke="#818cf8" strokeWidth={2} fill="url(#pv)" />
          <Area isAnimationActive={false} type="monotone" dataKey="visitors" name="Visitors" stroke="#38bdf8" strokeWidth={2} fill="url(#vis)" />
          {compared ? (
            <Line isAnimationActive={false} type="monotone" dataKey="earlierPageViews" name="Page views, earlier" stroke="#818cf8" strokeOpacity={0.6} strokeWidth={1.5} strokeDasharray="5 4" dot={false} />
          ) : null}
          {compared ? (
            <Line isAnimationActive={false} type="monotone" dataKey="earlierVisitors" name="Visitors, earlier" stroke="#38bdf8" strokeOpacity={0.6} strokeWidth={1.5} strokeDasharray="5 4" dot={false} />
          ) : null}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
