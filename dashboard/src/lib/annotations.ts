//! Where the chart marks annotations: each annotation on the point of its day (the day's point, or its first
//! hour on a one-day chart), several on one day sharing one marker. Annotations off the chart's points are left
//! out (the daemon sends those of the range's days, which an hourly chart may not all show).

/** The little of an annotation the chart needs. */
export interface Mark {
  id: number;
  date: string;
  text: string;
}

/** One marker: the chart point it stands on (its `date` key) and the annotations it holds, oldest first. */
export interface Marker {
  point: string;
  marks: Mark[];
}

/** The markers of `marks` on a chart of `points` (their `date` keys: days, or ISO hours). */
export function markersOn(points: readonly { date: string }[], marks: readonly Mark[]): Marker[] {
  const markers = new Map<string, Mark[]>();
  for (const mark of marks) {
    const point = points.find((p) => p.date === mark.date || p.date.startsWith(`${mark.date}T`));
    if (!point) continue;
    const list = markers.get(point.date) ?? [];
    list.push(mark);
    markers.set(point.date, list);
  }
  return [...markers].map(([point, list]) => ({ point, marks: list }));
}

/** A marker's text for its tooltip and accessible name: "Release 2.0 · Newsletter". */
export function markerText(marker: Marker): string {
  return marker.marks.map((m) => m.text).join(" · ");
}

/** Today as the site's days are kept (UTC), YYYY-MM-DD: the default day of a new annotation. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
