//! Traffic Overview chart (recharts): visitors and page views per day, or per hour for a one-day period (its
//! points are then hours, `2026-11-15T13:00:00Z`), with the site's annotations marked on their days: a dashed
//! line and a flag that names them on hover or keyboard focus. A click on a day offers to annotate it. When
//! the screen compares, the compared period's points are overlaid as dashed lines (point for point: the
//! earlier period's first day under this one's). Loaded lazily with recharts.
import { useState } from "react";
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TimeseriesPoint } from "../api/types";
import { type Mark, type Marker, markerText, markersOn } from "../lib/annotations";
import { pointLabel } from "../lib/time";

export default function TrafficChart({
  points,
  comparison,
  annotations = [],
  onPickDay,
}: {
  points: TimeseriesPoint[];
  /** The compared period's points, as many as `points`, when the screen compares. */
  comparison?: TimeseriesPoint[] | null;
  annotations?: readonly Mark[];
  /** Called with the clicked point's day (YYYY-MM-DD) when the viewer may annotate. */
  onPickDay?: (day: string) => void;
}) {
  const markers = markersOn(points, annotations);
  const compared = comparison !== undefined && comparison !== null;
  const data = points.map((p, i) => ({ ...p, earlierVisitors: comparison?.[i]?.visitors, earlierPageViews: comparison?.[i]?.pageViews }));
  const [shown, setShown] = useState<Marker | null>(null);
  return (
    <div className="w-full">
      <p className="mb-2 min-h-5 truncate text-xs text-amber-200" aria-live="polite" data-testid="annotation-shown">
        {shown ? `${pointLabel(shown.point)}: ${markerText(shown)}` : ""}
      </p>
      <div className="h-72 w-full" data-testid="traffic-chart" data-points={points.length} data-markers={markers.length} data-compared={compared ? comparison.length : 0}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart
            data={data}
            margin={{ top: 12, right: 8, left: -16, bottom: 0 }}
            onClick={(state) => {
              const day = typeof state?.activeLabel === "string" ? state.activeLabel.slice(0, 10) : null;
              if (day && onPickDay) onPickDay(day);
            }}
            style={onPickDay ? { cursor: "pointer" } : undefined}
          >
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
            <XAxis dataKey="date" tickFormatter={pointLabel} stroke="#6b7280" fontSize={12} tickLine={false} axisLine={false} minTickGap={24} />
            <YAxis stroke="#6b7280" fontSize={12} tickLine={false} axisLine={false} allowDecimals={false} />
            <Tooltip
              labelFormatter={(label) => pointLabel(String(label))}
              contentStyle={{ background: "var(--color-gray-900)", border: "1px solid var(--color-gray-700)", borderRadius: 8, color: "var(--color-gray-100)" }}
              labelStyle={{ color: "var(--color-gray-400)" }}
            />
            <Area isAnimationActive={false} type="monotone" dataKey="pageViews" name="Page views" stroke="#818cf8" strokeWidth={2} fill="url(#pv)" />
            <Area isAnimationActive={false} type="monotone" dataKey="visitors" name="Visitors" stroke="#38bdf8" strokeWidth={2} fill="url(#vis)" />
            {compared ? (
              <Line isAnimationActive={false} type="monotone" dataKey="earlierPageViews" name="Page views, earlier" stroke="#818cf8" strokeOpacity={0.6} strokeWidth={1.5} strokeDasharray="5 4" dot={false} />
            ) : null}
            {compared ? (
              <Line isAnimationActive={false} type="monotone" dataKey="earlierVisitors" name="Visitors, earlier" stroke="#38bdf8" strokeOpacity={0.6} strokeWidth={1.5} strokeDasharray="5 4" dot={false} />
            ) : null}
            {markers.map((marker) => (
              <ReferenceLine
                key={marker.point}
                x={marker.point}
                stroke="#f59e0b"
                strokeDasharray="3 3"
                label={<Flag marker={marker} onShow={setShown} />}
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}

/** The flag atop an annotation's line: a button (a tap shows it on touch screens), named for screen readers, and shown in the line above the
 * chart while hovered or focused (a native title would not show on focus, nor on touch). `viewBox` is the
 * line's box, given by recharts. */
function Flag({ marker, onShow, viewBox }: { marker: Marker; onShow: (m: Marker | null) => void; viewBox?: { x: number; y: number } }) {
  if (!viewBox) return null;
  const text = markerText(marker);
  return (
    // biome-ignore lint/a11y/useSemanticElements: SVG has no <button>; the group is focusable, named and keyed
    <g
      role="button"
      tabIndex={0}
      aria-label={`Annotation ${pointLabel(marker.point)}: ${text}`}
      data-testid="annotation-marker"
      data-text={text}
      transform={`translate(${viewBox.x}, ${viewBox.y})`}
      onMouseEnter={() => onShow(marker)}
      onMouseLeave={() => onShow(null)}
      onFocus={() => onShow(marker)}
      onBlur={() => onShow(null)}
      onClick={(e) => {
        e.stopPropagation();
        onShow(marker);
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter" || e.key === " ") onShow(marker);
      }}
      className="cursor-help outline-none [&:focus-visible>circle]:stroke-amber-200"
    >
      <title>{text}</title>
      <circle r={10} fill="transparent" />
      <circle r={5} fill="#f59e0b" stroke="#111827" strokeWidth={2} />
    </g>
  );
}
