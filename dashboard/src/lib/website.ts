//! Website form rules (spec part 1 §5) and tracking-code texts.
import type { TrackingLevel } from "../api/types";

export interface AddWebsiteDraft {
  name: string;
  domain: string;
}

/**
 * The Your Websites add dialog: trims both fields, null when one is empty (Missing information), and
 * prepends https:// to a domain without an http:// or https:// prefix.
 */
export function normalizeNewWebsite(draft: AddWebsiteDraft): AddWebsiteDraft | null {
  const name = draft.name.trim();
  let domain = draft.domain.trim();
  if (!name || !domain) return null;
  if (!/^https?:\/\//i.test(domain)) domain = `https://${domain}`;
  return { name, domain };
}

export interface WebsiteFormErrors {
  name?: string;
  domain?: string;
}

/** The All Sites form: name and domain required, domain must parse as a URL. */
export function validateWebsiteForm(draft: AddWebsiteDraft): WebsiteFormErrors {
  const errors: WebsiteFormErrors = {};
  if (!draft.name.trim()) errors.name = "Website name is required";
  const domain = draft.domain.trim();
  if (!domain) errors.domain = "Domain is required";
  else if (!isUrl(domain)) errors.domain = "Please enter a valid URL";
  return errors;
}

export function isUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** The host of a domain field for compact display. */
export function domainHost(domain: string): string {
  try {
    return new URL(domain).host;
  } catch {
    return domain;
  }
}

export const TRACKING_LEVELS: { value: TrackingLevel; label: string; description: string }[] = [
  { value: "light", label: "Light", description: "Basic pageview and event tracking." },
  {
    value: "enhanced",
    label: "Enhanced",
    description: "Adds session replays, custom event definitions and behaviour analysis.",
  },
  {
    value: "professional",
    label: "Professional",
    description: "Adds organization detection, conversions and advanced analytics.",
  },
];

export function trackingLevelInfo(level: string | undefined) {
  return TRACKING_LEVELS.find((l) => l.value === level) ?? TRACKING_LEVELS[0];
}

/** The personalised script URL: the one the server returned, else /tracking/{key}.js on this origin. */
export function scriptUrlFor(site: { trackingKey: string; scriptUrl?: string }, origin: string): string {
  return site.scriptUrl || `${origin}/tracking/${site.trackingKey}.js`;
}

export function embedSnippet(scriptUrl: string): string {
  return `<script async src="${scriptUrl}"></script>`;
}

export const CUSTOM_EVENT_EXAMPLE = `// Track a button click
window.tracker.track('button_click', {button: 'signup'})`;

export const CONVERSION_EXAMPLE = `// Track a conversion with value and currency
window.tracker.track('purchase', {value: 49.99, currency: 'USD'})`;

/** The 404 report's one-liner (README "Not found pages"): an event `404` with the page's path, on the site's
 * not-found page only, once the script has loaded. */
export const NOT_FOUND_EXAMPLE = `// On your 404 page only: lists the page in Events > Not Found Pages
window.addEventListener('load', () => window.tracker.track('404', {path: location.pathname}))`;

/** The snippet variants of the Tracking Code dialog (spec part 2, Tracking snippet variants; REAL.md). */
export type SnippetVariant = "personalised" | "basic" | "professional" | "legacy";

export const SNIPPET_VARIANTS: { value: SnippetVariant; label: string; description: string }[] = [
  { value: "personalised", label: "Default", description: "Your site's own script, with its settings built in. Recommended." },
  { value: "basic", label: "Basic", description: "The shared script; it reads your tracking key from the data-tracking-key attribute." },
  {
    value: "professional",
    label: "Professional",
    description: "A tracer object with track, identify and pageview, for sites that call the API themselves.",
  },
  {
    value: "legacy",
    label: "Legacy",
    description:
      "For pages written for older snippets: a global event(name, properties) function. This variant stores an id (visitor_session) on the visitor's device in localStorage, only when your site does not require consent or after the visitor consented.",
  },
];

/** The embed code of a variant for a site whose personalised script is `scriptUrl`. */
export function variantSnippet(variant: SnippetVariant, site: { trackingKey: string }, scriptUrl: string, origin: string): string {
  const key = site.trackingKey;
  switch (variant) {
    case "basic":
      return `<script async src="${origin}/tracking.js" data-tracking-key="${key}"></script>`;
    case "professional":
      return `<script src="${origin}/tracer.js"></script>
<script>
  var tracer = new Tracer({ websiteId: "${key}", async: true, debug: false });
  // tracer.track('signup', {plan: 'pro'}); tracer.identify({company: 'Acme'}); tracer.pageview();
</script>`;
    case "legacy":
      return `<script src="${origin}/tracking/legacy.js" data-tracking-key="${key}"></script>
<script>
  // event('signup', {plan: 'pro'});
</script>`;
    default:
      return embedSnippet(scriptUrl);
  }
}
