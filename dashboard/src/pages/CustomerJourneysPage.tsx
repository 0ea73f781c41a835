//! Customer Journeys (/customer-journeys, spec part 2): period and filter (kept in the URL and sent), four
//! summary cards of real totals, the journeys list with a detail panel (overview, visitor info, journey
//! path), and the site's most common paths drawn as a flow.
import { Fragment, Suspense, lazy, useState } from "react";
import type { CustomerJourney, JourneyFilter, JourneyPeriod } from "../api/funnels";
import { MetricCard } from "../components/MetricCard";
import { EmptyText, QueryState, SkeletonRows } from "../components/page/QueryState";
import { SitePage } from "../components/page/SitePage";
import { IconActivity, IconClock, IconRoute, IconTarget } from "../components/ui/icons";
import { Badge, Button, Card, CardBody, CardHeader, Select, Skeleton, cx } from "../components/ui/primitives";
import { FilterBar } from "../components/filters/FilterBar";
import { useFilters } from "../hooks/filters";
import { useParamState } from "../hooks/selection";
import { useCustomerJourneys, useJourneyPaths } from "../hooks/journeys";
import { useMediaQuery } from "../hooks/media";
import { countOf, formatNumber, formatPercent } from "../lib/format";
import { CLASS_TONE, classifyJourney, formatJourneyDuration } from "../lib/journeys";
import { relativeTime } from "../lib/time";

const JourneyFlow = lazy(() => import("../components/journeys/JourneyFlow"));

const PERIODS = [
  { value: "1d", label: "Last 24h" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
  { value: "90d", label: "Last 90 days" },
] as const satisfies readonly { value: JourneyPeriod; label: string }[];

const FILTERS = [
  { value: "all", label: "All journeys" },
  { value: "converted", label: "Converted" },
  { value: "abandoned", label: "Abandoned" },
  { value: "active", label: "Active" },
] as const satisfies readonly { value: JourneyFilter; label: string }[];
const FILTER_VALUES = FILTERS.map((f) => f.value);

export default function CustomerJourneysPage() {
  const [filter, setFilter] = useParamState<JourneyFilter>("filter", FILTER_VALUES, "all");
  return (
    <SitePage<JourneyPeriod>
      title="Customer Journeys"
      description="Each visit from entry to exit: the pages, the time on each, and whether it converted."
      ranges={{ options: PERIODS, fallback: "7d", param: "period", label: "Period" }}
      actions={() => (
        <Select aria-label="Filter" className="w-40" value={filter} onChange={(e) => setFilter(e.target.value as JourneyFilter)}>
          {FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </Select>
      )}
    >
      {({ website, range }) => <Journeys key={`${website.id}-${range}-${filter}`} site={website.id} period={range} filter={filter} />}
    </SitePage>
  );
}

/** Journeys listed a page at a time: the whole list made the screen 7,400 px tall and buried Common Paths. */
const JOURNEYS_PAGE = 10;

function Journeys({ site, period, filter }: { site: number; period: JourneyPeriod; filter: JourneyFilter }) {
  const filters = useFilters();
  const journeys = useCustomerJourneys(site, period, filter, filters.text);
  const [selected, setSelected] = useState<string | null>(null);
  const [page, setPage] = useState(0);
  // Side by side from `lg`; on narrower screens a tapped journey's details open under its row, not below the list.
  const wide = useMediaQuery("(min-width: 1024px)");
  const data = journeys.data;
  const summary = data?.summary;
  const pages = Math.max(1, Math.ceil((data?.journeys.length ?? 0) / JOURNEYS_PAGE));
  const shownPage = Math.min(page, pages - 1);
  const shown = data?.journeys.slice(shownPage * JOURNEYS_PAGE, (shownPage + 1) * JOURNEYS_PAGE) ?? [];
  const current = data?.journeys.find((j) => j.sessionId === selected) ?? (wide ? shown[0] : undefined);
  return (
    <div className={cx("space-y-6", journeys.isPlaceholderData && "opacity-70")} aria-busy={journeys.isFetching}>
      <FilterBar websiteId={site} period={`range=${period}`} error={journeys.error} />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard
          title="Total Journeys"
          icon={<IconRoute />}
          loading={!summary}
          value={formatNumber(summary?.totalJourneys)}
          caption={PERIODS.find((p) => p.value === period)?.label}
        />
        <MetricCard title="Avg Duration" icon={<IconClock />} loading={!summary} value={formatJourneyDuration(summary?.averageDuration ?? 0)} caption="per journey" />
        <MetricCard
          title="Avg Touchpoints"
          icon={<IconActivity />}
          loading={!summary}
          value={(summary?.averageTouchpoints ?? 0).toFixed(1)}
          caption="pages and events per journey"
        />
        <MetricCard title="Conversion Rate" icon={<IconTarget />} loading={!summary} value={formatPercent(summary?.conversionRate ?? 0)} caption="journeys with a conversion" />
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <Card className="lg:col-span-3">
          <CardHeader title="Journeys" description={data && data.summary.totalJourneys > data.journeys.length ? `The newest ${data.journeys.length}` : undefined} />
          <CardBody className="p-0">
            <QueryState
              query={journeys}
              skeleton={
                <div className="p-5">
                  <SkeletonRows rows={5} className="h-14" />
                </div>
              }
              isEmpty={(d) => d.journeys.length === 0}
              empty={<EmptyText>No journeys in this period.</EmptyText>}
            >
              {(d) => (
                <>
                  <ul className="divide-y divide-gray-800" data-testid="journey-list">
                    {shown.map((j) => (
                      <Fragment key={j.sessionId}>
                        <JourneyRow
                          journey={j}
                          selected={j.sessionId === current?.sessionId}
                          onSelect={() => setSelected(!wide && j.sessionId === selected ? null : j.sessionId)}
                        />
                        {!wide && j.sessionId === current?.sessionId && (
                          <li className="bg-gray-950/40 p-3">
                            <JourneyDetail journey={j} />
                          </li>
                        )}
                      </Fragment>
                    ))}
                  </ul>
                  {pages > 1 && (
                    <div className="flex items-center justify-between gap-3 border-t border-gray-800 px-5 py-3 text-sm text-gray-400" data-testid="journey-pages">
                      <span>
                        {shownPage * JOURNEYS_PAGE + 1}-{shownPage * JOURNEYS_PAGE + shown.length} of {formatNumber(d.journeys.length)}
                      </span>
                      <div className="flex gap-2">
                        <Button variant="outline" size="sm" disabled={shownPage === 0} onClick={() => setPage(shownPage - 1)}>
                          Previous
                        </Button>
                        <Button variant="outline" size="sm" disabled={shownPage >= pages - 1} onClick={() => setPage(shownPage + 1)}>
                          Next
                        </Button>
                      </div>
                    </div>
                  )}
                </>
              )}
            </QueryState>
          </CardBody>
        </Card>
        {wide && (
          <div className="lg:sticky lg:top-6 lg:col-span-2 lg:self-start">
            {current ? <JourneyDetail journey={current} /> : data ? null : <Skeleton className="h-96 w-full" />}
          </div>
        )}
      </div>

      <CommonPaths site={site} period={period} />
    </div>
  );
}

function JourneyRow({ journey, selected, onSelect }: { journey: CustomerJourney; selected: boolean; onSelect: () => void }) {
  const kind = classifyJourney(journey);
  return (
    <li>
      <button
        type="button"
        onClick={onSelect}
        aria-pressed={selected}
        data-testid="journey-row"
        className={cx("flex w-full flex-col gap-1 px-5 py-3 text-left hover:bg-gray-800/40 sm:flex-row sm:items-center sm:justify-between", selected && "bg-gray-800/60")}
      >
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-sm text-white">{journey.sessionId.slice(0, 8)}</span>
            <Badge tone={CLASS_TONE[kind]}>{kind}</Badge>
          </div>
          <p className="truncate text-xs text-gray-500">
            {journey.visitorInfo.location} · {journey.visitorInfo.source} · {relativeTime(journey.startedAt)}
          </p>
        </div>
        <div className="flex shrink-0 gap-4 text-xs tabular-nums text-gray-400">
          <span>{countOf(journey.touchpoints, "touchpoint")}</span>
          <span>{formatJourneyDuration(journey.totalDuration)}</span>
          <span>{journey.journeyScore}%</span>
        </div>
      </button>
    </li>
  );
}

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-3 py-1.5 text-sm">
      <dt className="text-gray-500">{label}</dt>
      <dd className="truncate text-right text-gray-200">{value}</dd>
    </div>
  );
}

function JourneyDetail({ journey }: { journey: CustomerJourney }) {
  const kind = classifyJourney(journey);
  return (
    <Card data-testid="journey-detail">
      <CardHeader title={`Journey ${journey.sessionId.slice(0, 8)}`} action={<Badge tone={CLASS_TONE[kind]}>{kind}</Badge>} />
      <CardBody className="space-y-5">
        <section>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-gray-500">Overview</h3>
          <dl>
            <Fact label="Journey score" value={`${journey.journeyScore}%`} />
            <Fact label="Duration" value={formatJourneyDuration(journey.totalDuration)} />
            <Fact label="Touchpoints" value={journey.touchpoints} />
            <Fact label="Conversion events" value={journey.conversionEvents} />
            <Fact label="Status" value={journey.isCompleted ? "Completed" : "In progress"} />
          </dl>
        </section>
        <section>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-gray-500">Visitor Info</h3>
          <dl>
            <Fact label="Location" value={journey.visitorInfo.location} />
            <Fact label="Device" value={journey.visitorInfo.device} />
            <Fact label="Browser" value={journey.visitorInfo.browser} />
            <Fact label="Source" value={journey.visitorInfo.source} />
          </dl>
        </section>
        <section>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-gray-500">Journey Path</h3>
          <ol className="space-y-2" data-testid="journey-path">
            {journey.steps.map((step, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: steps are positional
              <li key={i} className="flex items-center gap-3">
                <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-gray-800 text-xs text-gray-400">{i + 1}</span>
                <div className="min-w-0 flex-1">
                  <p className="truncate font-mono text-sm text-gray-200" title={step.page}>
                    {step.page}
                  </p>
                  <p className="text-xs text-gray-500">
                    {step.eventType}
                    {step.name ? `: ${step.name}` : ""}
                  </p>
                </div>
                <span className="shrink-0 text-xs tabular-nums text-gray-400">{formatJourneyDuration(step.duration)}</span>
              </li>
            ))}
          </ol>
          {journey.touchpoints > journey.steps.length && <p className="mt-2 text-xs text-gray-500">and {journey.touchpoints - journey.steps.length} more</p>}
        </section>
      </CardBody>
    </Card>
  );
}

function CommonPaths({ site, period }: { site: number; period: JourneyPeriod }) {
  const paths = useJourneyPaths(site, period, useFilters().text);
  return (
    <Card>
      <CardHeader title="Common Paths" description="The most frequent page sequences from entry to exit." />
      <CardBody>
        <QueryState query={paths} isEmpty={(d) => d.paths.length === 0} empty={<EmptyText>No page views in this period.</EmptyText>}>
          {(d) => (
            <div className="space-y-4">
              <Suspense fallback={<Skeleton className="h-80 w-full" />}>
                <JourneyFlow paths={d.paths} />
              </Suspense>
              <ol className="divide-y divide-gray-800 text-sm" data-testid="journey-paths">
                {d.paths.map((p) => (
                  <li key={p.pages.join("\u0000")} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between">
                    <span className="min-w-0 break-words font-mono text-gray-200">{p.pages.join(" → ")}</span>
                    <span className="shrink-0 text-xs tabular-nums text-gray-400">
                      {formatNumber(p.sessions)} visits · {formatPercent(p.conversionRate)} converted
                    </span>
                  </li>
                ))}
              </ol>
            </div>
          )}
        </QueryState>
      </CardBody>
    </Card>
  );
}
