//! Event Properties (Events screen): pick an event (a goal or a custom event of the period's Top Events), name one
//! of its properties (typed, or picked from the keys that event carried in the period), and see how often each value came (GET /api/websites/{id}/breakdown/prop:<key> under the
//! screen's filters and "Event is ..."): which outbound link, which file, which plan. A row adds the event and
//! the value to the screen's filters. `NotFoundPages` is the same read fixed to the 404 report's event.
import { type FormEvent, useState } from "react";
import type { Breakdown } from "../../api/types";
import { useBreakdown } from "../../hooks/analytics";
import { useFilters } from "../../hooks/filters";
import { type Condition, narrowedText } from "../../lib/filters";
import { BarRow } from "../BreakdownPanel";
import { RefusedText, refusedFilters } from "../filters/Refused";
import { EmptyText, QueryState } from "../page/QueryState";
import { Button, Card, CardBody, CardHeader, Input } from "../ui/primitives";
import { PropertyKeySuggestions } from "./PropertyKeySuggestions";

/** How many values a property card lists. */
const ROWS = 10;

/** The condition "Event is `event`". */
function byName(event: string): Condition {
  return { operator: "is", dimension: "event:name", values: [event] };
}

/** `events` are the names to pick from, most frequent first; `period` the screen's period as query text. */
export function PropertyBreakdown({ websiteId, period, events }: { websiteId: number; period: string; events: string[] }) {
  const [picked, setPicked] = useState<string | null>(null);
  const [typed, setTyped] = useState("");
  const [key, setKey] = useState("");
  const event = picked ?? events[0] ?? "";
  const { filters, text } = useFilters();
  const ofEvent = narrowedText(filters, text, byName(event));
  function submit(e: FormEvent) {
    e.preventDefault();
    setKey(typed.trim());
  }
  function pickKey(k: string) {
    setTyped(k);
    setKey(k);
  }
  return (
    <Card data-testid="event-properties">
      <CardHeader title="Event Properties" description="How often each value of an event's property came" />
      <CardBody>
        <form className="mb-4 flex flex-wrap items-end gap-2" onSubmit={submit}>
          <label className="flex min-w-0 flex-col gap-1 text-xs text-gray-400">
            Event
            <select
              className="h-9 rounded-md border border-gray-700 bg-gray-900 px-2 text-sm text-gray-100"
              value={event}
              onChange={(e) => setPicked(e.target.value)}
              disabled={events.length === 0}
            >
              {events.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <label htmlFor="event-property-key" className="flex min-w-0 flex-1 flex-col gap-1 text-xs text-gray-400">
            Property
            <Input id="event-property-key" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="url, file, plan..." maxLength={200} />
          </label>
          <Button type="submit" variant="secondary" disabled={events.length === 0 || typed.trim() === ""}>
            Show
          </Button>
        </form>
        <div className="mb-4">
          <PropertyKeySuggestions websiteId={websiteId} period={period} filters={ofEvent} picked={key} onPick={pickKey} enabled={events.length > 0} />
        </div>
        {events.length === 0 ? (
          <EmptyText>No event to break down in this period</EmptyText>
        ) : key === "" ? (
          <EmptyText>Name a property of {event} to see its values.</EmptyText>
        ) : (
          <PropertyRows websiteId={websiteId} period={period} event={event} property={key} testId="property-rows" />
        )}
      </CardBody>
    </Card>
  );
}

/** The 404 report: the pages the site marked as not found (the documented one-liner sends an event `404` with
 * the page's `path`), most reported first. */
export function NotFoundPages({ websiteId, period }: { websiteId: number; period: string }) {
  return (
    <Card data-testid="not-found-pages">
      <CardHeader title="Not Found Pages" description="Pages that answered 404, as the tracking snippet reports them" />
      <CardBody>
        <PropertyRows websiteId={websiteId} period={period} event="404" property="path" testId="not-found-rows" empty="No page reported as not found in this period" />
      </CardBody>
    </Card>
  );
}

function PropertyRows({
  websiteId,
  period,
  event,
  property,
  testId,
  empty,
}: { websiteId: number; period: string; event: string; property: string; testId: string; empty?: string }) {
  const { filters, text, active, add } = useFilters();
  const byEvent = byName(event);
  const query = useBreakdown(websiteId, `prop:${property}`, period, ROWS, narrowedText(filters, text, byEvent));
  if (refusedFilters(active, query.error)) return <RefusedText />;
  const rows = (data: Breakdown) => {
    const max = Math.max(0, ...data.rows.map((r) => r.count));
    return (
      <ul className="space-y-2" data-testid={testId}>
        {data.rows.map((r) => (
          <BarRow
            key={r.value}
            label={<span className="truncate">{r.value}</span>}
            title={r.value}
            value={r.count}
            max={max}
            filter={{ operator: "is", dimension: `event:props:${property}`, values: [r.value] }}
            onFilter={(c) => {
              add(byEvent);
              add(c);
            }}
          />
        ))}
      </ul>
    );
  };
  return (
    <QueryState query={query} isEmpty={(d) => d.rows.length === 0} empty={<EmptyText>{empty ?? `No ${event} event carried ${property} in this period`}</EmptyText>}>
      {rows}
    </QueryState>
  );
}
