//! Funnel form defaults and validation (spec part 2 §5), step health and status tones (§4).
import type { FunnelInput, FunnelStepInput } from "../api/funnels";

/** Spec §5: the steps a new funnel starts with. */
export const DEFAULT_STEPS: readonly FunnelStepInput[] = [
  { name: "Landing Page", url: "/", eventName: "" },
  { name: "Product Page", url: "/product", eventName: "" },
  { name: "Checkout", url: "/checkout", eventName: "" },
  { name: "Purchase", url: "/success", eventName: "purchase" },
];

/** Spec §9. */
export const MIN_FUNNEL_STEPS = 2;
/** The server's limit. */
export const MAX_FUNNEL_STEPS = 20;

export interface FunnelFormErrors {
  name?: string;
  websiteId?: string;
  steps?: string;
  /** Per step, by index. */
  step?: Record<number, { name?: string; url?: string }>;
}

/** The spec's messages for a funnel form; an empty object when it may be sent. */
export function validateFunnelForm(form: FunnelInput): FunnelFormErrors {
  const errors: FunnelFormErrors = {};
  if (!form.name.trim()) errors.name = "Funnel name is required";
  if (form.websiteId === "") errors.websiteId = "Website is required";
  if (form.steps.length < MIN_FUNNEL_STEPS) errors.steps = "At least 2 steps are required";
  const step: Record<number, { name?: string; url?: string }> = {};
  form.steps.forEach((s, i) => {
    const e: { name?: string; url?: string } = {};
    if (!s.name.trim()) e.name = "Step name is required";
    if (!s.url.trim()) e.url = "URL is required";
    if (e.name || e.url) step[i] = e;
  });
  if (Object.keys(step).length > 0) errors.step = step;
  return errors;
}

export function hasErrors(errors: FunnelFormErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** The body to send: names and URLs trimmed, an empty event name left out. */
export function funnelBody(form: FunnelInput): FunnelInput {
  return {
    ...form,
    name: form.name.trim(),
    steps: form.steps.map((s) => {
      const event = s.eventName?.trim();
      return { name: s.name.trim(), url: s.url.trim(), ...(event ? { eventName: event } : {}) };
    }),
  };
}

/** Moves the step at `from` by `by` places (-1 up, +1 down); out of range leaves the list as is. */
export function moveStep<T>(steps: readonly T[], from: number, by: number): T[] {
  const to = from + by;
  if (from < 0 || from >= steps.length || to < 0 || to >= steps.length) return [...steps];
  const next = [...steps];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

export type StepHealth = "good" | "medium" | "poor";

/** Spec §4: 60 or more good, 30 to under 60 medium, below 30 poor. */
export function stepHealth(conversionRate: number): StepHealth {
  if (conversionRate >= 60) return "good";
  if (conversionRate >= 30) return "medium";
  return "poor";
}

/** Spec §4: active green, paused yellow, anything else grey. */
export function statusTone(status: string): "green" | "yellow" | "gray" {
  return status === "active" ? "green" : status === "paused" ? "yellow" : "gray";
}
