//! One funnel: name, website, created date, status badge, per-step cards (visitors, conversions, conversion
//! rate, drop-off, health) and totals (spec part 2 "Conversion Funnels", §3, §4); each step's drop-offs open
//! the list of those visits.
import { useState } from "react";
import type { Funnel, FunnelStep } from "../../api/funnels";
import { formatNumber, formatPercent } from "../../lib/format";
import { stepHealth, statusTone } from "../../lib/funnels";
import type { StepHealth } from "../../lib/funnels";
import { formatDate } from "../../lib/time";
import { Menu } from "../ui/Menu";
import { IconEdit, IconMore, IconTrash, IconZap } from "../ui/icons";
import { Badge, Card, Spinner, cx } from "../ui/primitives";
import { DropOffDialog } from "./DropOffDialog";

const HEALTH: Record<StepHealth, { label: string; bar: string; text: string }> = {
  good: { label: "Good", bar: "bg-emerald-500", text: "text-emerald-400" },
  medium: { label: "Medium", bar: "bg-amber-400", text: "text-amber-300" },
  poor: { label: "Poor", bar: "bg-red-500", text: "text-red-400" },
};

function StepCard({
  step,
  index,
  first,
  pending,
  onDropOffs,
}: {
  step: FunnelStep;
  index: number;
  first: number;
  /** The figures are being counted (after an edit of the steps): shown as "…". */
  pending: boolean;
  /** Opens the step's drop-off visits; absent on the last step. */
  onDropOffs?: () => void;
}) {
  const health = HEALTH[stepHealth(step.conversionRate)];
  const reach = first > 0 ? (step.visitors / first) * 100 : 0;
  return (
    <div data-testid="funnel-step" className="flex min-w-0 flex-col rounded-lg border border-gray-800 bg-gray-950/50 p-4">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-xs font-semibold uppercase tracking-wide text-gray-500">Step {index + 1}</p>
          <p className="truncate font-medium text-white" title={step.name}>
            {step.name}
          </p>
          <p className="truncate font-mono text-xs text-gray-500" title={step.url}>
            {step.url}
            {step.eventName ? ` · ${step.eventName}` : ""}
          </p>
        </div>
        <span data-testid="step-health" className={cx("shrink-0 text-xs font-medium", health.text)}>
          {health.label}
        </span>
      </div>
      <p className="mt-3 text-2xl font-semibold tabular-nums text-white" data-testid="step-visitors">
        {pending ? "…" : formatNumber(step.visitors)}
      </p>
      <p className="text-xs text-gray-500">visitors</p>
      <div className="mt-3 h-1.5 overflow-hidden rounded-full bg-gray-800" aria-hidden>
        <div className={cx("h-full rounded-full", health.bar)} style={{ width: `${Math.min(100, reach)}%` }} />
      </div>
      <dl className="mt-3 grid grid-cols-3 gap-2 text-xs">
        <div>
          <dt className="text-gray-500">Conversions</dt>
          <dd className="font-medium tabular-nums text-gray-200" data-testid="step-conversions">
            {pending ? "…" : formatNumber(step.conversions)}
          </dd>
        </div>
        <div>
          <dt className="text-gray-500">Rate</dt>
          <dd className="font-medium tabular-nums text-gray-200" data-testid="step-rate">
            {pending ? "…" : formatPercent(step.conversionRate)}
          </dd>
        </div>
        <div>
          <dt className="text-gray-500">Drop-off</dt>
          <dd className="font-medium tabular-nums text-gray-200" data-testid="step-dropoff">
            {pending ? "…" : formatPercent(step.dropOffRate)}
          </dd>
        </div>
      </dl>
      {onDropOffs && !pending && step.visitors > step.conversions ? (
        <button
          type="button"
          onClick={onDropOffs}
          data-testid="step-dropoffs"
          className="mt-3 self-start text-xs font-medium text-indigo-300 hover:text-indigo-200"
        >
          {formatNumber(step.visitors - step.conversions)} dropped off: view visits
        </button>
      ) : null}
    </div>
  );
}

export function FunnelCard({
  funnel,
  range,
  changes,
}: {
  funnel: Funnel;
  /** The range the figures are for; the drop-off list reads the same. */
  range: string;
  /** Absent for a role on the funnel's site that may not change it (a viewer): the card has no menu then. */
  changes?: { onEdit: () => void; onToggle: () => void; onDelete: () => void };
}) {
  const active = funnel.status === "active";
  const first = funnel.steps[0]?.visitors ?? 0;
  const [dropOffStep, setDropOffStep] = useState<number>();
  const last = funnel.steps.length - 1;
  const pending = funnel.figuresPending;
  const figure = (text: string) => (pending ? "…" : text);
  return (
    <Card className="p-5" data-testid="funnel" aria-label={funnel.name}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="truncate text-lg font-semibold text-white">{funnel.name}</h2>
            <Badge tone={statusTone(funnel.status)}>{funnel.status === "active" ? "Active" : funnel.status === "paused" ? "Paused" : funnel.status}</Badge>
          </div>
          <p className="mt-1 text-sm text-gray-400">
            {funnel.website.name} · Created {formatDate(funnel.createdAt)}
          </p>
        </div>
        {changes && (
          <Menu
            label={`Actions for ${funnel.name}`}
            trigger={<IconMore className="h-5 w-5" />}
            items={[
              { label: "Edit", icon: <IconEdit />, onSelect: changes.onEdit },
              { label: active ? "Pause" : "Activate", icon: <IconZap />, onSelect: changes.onToggle },
              { label: "Delete", icon: <IconTrash />, danger: true, onSelect: changes.onDelete },
            ]}
          />
        )}
      </div>
      {pending ? (
        <p className="mt-3 flex items-center gap-2 text-sm text-gray-400" data-testid="funnel-pending">
          <Spinner className="h-4 w-4" label="Counting" />
          Counting the new steps over the range…
        </p>
      ) : null}
      <div className="mt-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {funnel.steps.map((step, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: steps are positional
          <StepCard key={i} step={step} index={i} first={first} pending={pending} onDropOffs={i < last ? () => setDropOffStep(i) : undefined} />
        ))}
      </div>
      <dl className="mt-4 grid grid-cols-3 gap-3 border-t border-gray-800 pt-4 text-sm">
        <div>
          <dt className="text-gray-500">Total Visitors</dt>
          <dd className="text-lg font-semibold tabular-nums text-white" data-testid="funnel-total-visitors">
            {figure(formatNumber(funnel.totalVisitors))}
          </dd>
        </div>
        <div>
          <dt className="text-gray-500">Conversions</dt>
          <dd className="text-lg font-semibold tabular-nums text-white" data-testid="funnel-total-conversions">
            {figure(formatNumber(funnel.totalConversions))}
          </dd>
        </div>
        <div>
          <dt className="text-gray-500">Overall Rate</dt>
          <dd className="text-lg font-semibold tabular-nums text-white" data-testid="funnel-overall-rate">
            {figure(formatPercent(funnel.overallConversionRate))}
          </dd>
        </div>
      </dl>
      <DropOffDialog funnel={funnel} range={range} step={dropOffStep} onClose={() => setDropOffStep(undefined)} />
    </Card>
  );
}
