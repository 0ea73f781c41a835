//! Pure time formatting used by the live list, activity feeds and tables.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** "Just now" under a minute, "Nm ago" under an hour, "Nh ago" under a day, else "MMM d". */
export function relativeTime(value: string | number | Date, now: number = Date.now()): string {
  const date = toDate(value);
  const diff = now - date.getTime();
  if (Number.isNaN(diff)) return "";
  const minutes = Math.floor(diff / 60_000);
  if (minutes < 1) return "Just now";
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${MONTHS[date.getMonth()]} ${date.getDate()}`;
}

/** "Jan 5, 2025". */
export function formatDate(value: string | number | Date): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return "";
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/** "Jan 5, 2025, 14:05". */
export function formatDateTime(value: string | number | Date): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return "";
  const hh = String(date.getHours()).padStart(2, "0");
  const mm = String(date.getMinutes()).padStart(2, "0");
  return `${formatDate(date)}, ${hh}:${mm}`;
}

/** A day key "2026-11-15" (UTC, as the API sends it) as an axis label "Nov 15". */
export function dayLabel(day: string): string {
  const [, m, d] = day.split("-").map(Number);
  if (!m || !d) return day;
  return `${MONTHS[m - 1]} ${d}`;
}

/** A chart point's key as its axis label: a day "Nov 15", an hour (`2026-11-15T13:00:00Z`, UTC as the API
 * sends it) "13:00". */
export function pointLabel(key: string): string {
  const hour = /^\d{4}-\d{2}-\d{2}T(\d{2}):(\d{2})/.exec(key);
  return hour ? `${hour[1]}:${hour[2]}` : dayLabel(key);
}

/** Seconds as "42s", "3m 12s" or "1h 5m". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}
