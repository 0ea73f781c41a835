//! The session row's wording, exactly as spec part 2 ("Visitor Stream") lists it.
import type { StreamSession } from "../api/visitorStream";

/** The avatar: the first two letters of the country code, or 'UN'. */
export function avatarText(country: string): string {
  return country ? country.slice(0, 2).toUpperCase() : "UN";
}

/** City, region and country joined, else 'Unknown Location'. */
export function locationText(s: Pick<StreamSession, "city" | "region" | "country">): string {
  const parts = [s.city, s.region, s.country].filter((p) => p && p.trim() !== "");
  return parts.length ? parts.join(", ") : "Unknown Location";
}

/** The device type, 'Desktop' when unknown. */
export function deviceText(device: string): string {
  return device ? device.charAt(0).toUpperCase() + device.slice(1) : "Desktop";
}

/** The browser, 'Unknown' when unknown. */
export function browserText(browser: string): string {
  return browser || "Unknown";
}

/** Seconds as m:ss. */
export function minutesSeconds(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The UTM source, else the referrer's host name without 'www.', else 'Direct'. */
export function sourceText(s: Pick<StreamSession, "utmSource" | "referrer">): string {
  if (s.utmSource) return s.utmSource;
  if (s.referrer) {
    try {
      return new URL(s.referrer).hostname.replace(/^www\./, "");
    } catch {
      return s.referrer.replace(/^www\./, "");
    }
  }
  return "Direct";
}

/** The current activity, or 'Viewing: page'. */
export function activityText(s: Pick<StreamSession, "currentActivity" | "exitPage">): string {
  return s.currentActivity.activity || `Viewing: ${s.currentActivity.currentPage || s.exitPage}`;
}
