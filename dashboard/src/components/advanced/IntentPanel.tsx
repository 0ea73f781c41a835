//! The AI visitor intent panel (spec part 2 "AI visitor intent panel"): Intent Patterns, High-Intent
//! Visitors with a visitor detail card, and AI Recommendations, from the site's locally fitted intent model.
//! Takes the website id as text; a blank id shows the no-website state. Refetches every 30 s.
import { useState } from "react";
import type { AiIntent, IntentPatternName, IntentSession } from "../../api/advanced";
import { useAiIntent } from "../../hooks/advanced";
import { formatNumber, formatPercent } from "../../lib/format";
import {
  PATTERN_LABELS,
  highIntentVisitors,
  intentLabel,
  intentTone,
  modelNote,
  shortDuration,
  shortVisitorId,
  visitorAdvice,
  visitorId,
} from "../../lib/intent";
import { QueryState, SkeletonRows } from "../page/QueryState";
import { IconClock, IconEye, IconSearch, IconTarget, IconUsers, IconX, IconZap } from "../ui/icons";
import { Badge, Button, Card, CardBody, CardHeader, EmptyState, cx } from "../ui/primitives";
import { TabsContent, TabsList, TabsRoot, TabsTrigger } from "../ui/Tabs";

type IntentTab = "patterns" | "visitors" | "recommendations";

const TONE_CLASSES = {
  green: "text-emerald-400 bg-emerald-500/15 ring-emerald-500/30",
  blue: "text-sky-300 bg-sky-500/15 ring-sky-500/30",
  yellow: "text-amber-300 bg-amber-500/15 ring-amber-500/30",
  red: "text-red-300 bg-red-500/15 ring-red-500/30",
} as const;

const PATTERN_ICONS: Record<IntentPatternName, typeof IconZap> = {
  ready_to_convert: IconTarget,
  researching: IconSearch,
  exploring: IconEye,
  window_shopping: IconClock,
};

/** `filters`: the screen's filters as sent (null for none); the scores are of the visits they admit. */
export function IntentPanel({ websiteId, timeRange = "24h", filters = null }: { websiteId: string; timeRange?: string; filters?: string | null }) {
  const id = websiteId.trim() === "" ? undefined : Number(websiteId);
  const intent = useAiIntent(id !== undefined && Number.isFinite(id) ? id : undefined, timeRange, filters);
  if (id === undefined) {
    return (
      <Card>
        <EmptyState icon={<IconUsers />} title="No Website Selected" description="Please select a website to view AI intent analysis" />
      </Card>
    );
  }
  return (
    <QueryState
      query={intent}
      skeleton={<SkeletonRows rows={4} className="h-16" />}
      isEmpty={(d) => d.summary.totalAnalyzed === 0}
      empty={
        <Card>
          <EmptyState icon={<IconZap />} title="No intent data available" description="Intent scores appear once visitors browse this website in the chosen period." />
        </Card>
      }
    >
      {(data) => <IntentView data={data} />}
    </QueryState>
  );
}

function ScoreBadge({ score }: { score: number }) {
  return (
    <span className={cx("inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset", TONE_CLASSES[intentTone(score)])}>
      {score} · {intentLabel(score)}
    </span>
  );
}

function IntentView({ data }: { data: AiIntent }) {
  const [tab, setTab] = useState<IntentTab>("patterns");
  const [selected, setSelected] = useState<IntentSession | null>(null);
  const s = data.summary;
  const m = data.model;
  return (
    <div className="space-y-6" data-testid="intent-panel">
      <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
        <Stat label="Visits Analyzed" value={formatNumber(s.totalAnalyzed)} />
        <Stat label="High Intent" value={formatNumber(s.highIntent)} caption={formatPercent(data.distribution.high)} />
        <Stat label="Medium Intent" value={formatNumber(s.mediumIntent)} caption={formatPercent(data.distribution.medium)} />
        <Stat label="Avg Intent Score" value={s.averageIntentScore.toFixed(1)} />
      </div>
      <Card className="px-5 py-3 text-sm text-gray-400" data-testid="model-info">
        <span className="font-medium text-gray-200">{m.source === "fitted" ? "Model fitted on this site" : "Prior weights"}</span>
        {" · "}
        {modelNote(m.source, m.note)}
        {m.auc != null && (
          <>
            {" · "}
            <span data-testid="model-auc">
              Held-out AUC {m.auc.toFixed(3)} ({m.heldOutSessions} visits, {m.heldOutConversions} converted)
            </span>
          </>
        )}
      </Card>

      <TabsRoot<IntentTab> value={tab} onChange={setTab} className="space-y-4">
        <TabsList className="flex w-full overflow-x-auto sm:inline-flex sm:w-auto">
          <TabsTrigger value="patterns">Intent Patterns</TabsTrigger>
          <TabsTrigger value="visitors">High-Intent Visitors</TabsTrigger>
          <TabsTrigger value="recommendations">AI Recommendations</TabsTrigger>
        </TabsList>
        <TabsContent value="patterns">
          <div className="grid gap-4 sm:grid-cols-2">
            {data.patterns.map((p) => {
              // The contract types the name as text; the daemon names one of the four patterns.
              const pattern = p.pattern as IntentPatternName;
              const Icon = PATTERN_ICONS[pattern];
              return (
                <Card key={p.pattern} className="p-5" data-testid={`pattern-${p.pattern}`}>
                  <div className="flex items-center gap-3">
                    <span className="rounded-lg bg-gray-800 p-2 text-indigo-300 [&_svg]:h-4 [&_svg]:w-4">
                      <Icon />
                    </span>
                    <div>
                      <p className="font-medium text-white">{PATTERN_LABELS[pattern]}</p>
                      <p className="text-xs text-gray-500">{p.pattern}</p>
                    </div>
                    <p className="ml-auto text-2xl font-semibold text-white" data-testid="pattern-count">
                      {formatNumber(p.count)}
                    </p>
                  </div>
                  <div className="mt-3 h-1.5 overflow-hidden rounded-full bg-gray-800">
                    <div className="h-full rounded-full bg-indigo-500" style={{ width: `${p.percentage}%` }} />
                  </div>
                  <p className="mt-2 text-xs text-gray-400">
                    {formatPercent(p.percentage)} of visits · average score {p.averageScore.toFixed(1)} · {formatPercent(p.conversionRate)} converted
                  </p>
                </Card>
              );
            })}
          </div>
        </TabsContent>
        <TabsContent value="visitors">
          <HighIntentList sessions={data.topIntentSessions} onSelect={setSelected} selected={selected} />
        </TabsContent>
        <TabsContent value="recommendations">
          <div className="space-y-4">
            {data.recommendations.length === 0 ? (
              <Card>
                <EmptyState title="No recommendations yet" description="Recommendations appear once the period has enough visits to cite." />
              </Card>
            ) : (
              data.recommendations.map((r) => (
                <Card key={r.id} className="p-5" data-testid={`recommendation-${r.id}`}>
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge tone={r.priority === "high" ? "red" : r.priority === "medium" ? "yellow" : "gray"}>{r.priority}</Badge>
                    <p className="font-medium text-white">{r.title}</p>
                  </div>
                  <p className="mt-2 text-sm text-gray-400">{r.detail}</p>
                  <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-xs">
                    {r.evidence.map((e) => (
                      <div key={e.label}>
                        <dt className="text-gray-500">{e.label}</dt>
                        <dd className="font-medium text-gray-200">{e.value}</dd>
                      </div>
                    ))}
                  </dl>
                </Card>
              ))
            )}
          </div>
        </TabsContent>
      </TabsRoot>

      {selected && <VisitorDetail session={selected} onClose={() => setSelected(null)} />}
    </div>
  );
}

function Stat({ label, value, caption }: { label: string; value: string; caption?: string }) {
  return (
    <Card className="p-4" data-testid={`intent-stat-${label}`}>
      <p className="text-xs text-gray-400">{label}</p>
      <p className="mt-1 text-xl font-semibold text-white" data-testid="intent-stat-value">
        {value}
      </p>
      {caption && <p className="text-xs text-gray-500">{caption}</p>}
    </Card>
  );
}

function HighIntentList({
  sessions,
  selected,
  onSelect,
}: {
  sessions: IntentSession[];
  selected: IntentSession | null;
  onSelect: (s: IntentSession) => void;
}) {
  const list = highIntentVisitors(sessions);
  if (list.length === 0) {
    return (
      <Card>
        <EmptyState title="No high-intent visitors" description="No visit in this period scored 60 or more." />
      </Card>
    );
  }
  return (
    <Card>
      <ul className="divide-y divide-gray-800">
        {list.map((s) => (
          <li key={s.sessionId}>
            <button
              type="button"
              data-testid="high-intent-row"
              onClick={() => onSelect(s)}
              className={cx(
                "flex w-full flex-wrap items-center gap-3 px-5 py-3 text-left text-sm hover:bg-gray-800/50",
                selected?.sessionId === s.sessionId && "bg-gray-800/60",
              )}
            >
              <span className="font-mono text-gray-200">{shortVisitorId(s.sessionId)}</span>
              <ScoreBadge score={s.intentScore} />
              <span className="text-gray-400">
                {s.signals.pageViews} pages · {shortDuration(s.signals.duration)}
              </span>
              {s.signals.isConverted && <Badge tone="green">Converted</Badge>}
              <span className="ml-auto text-xs text-gray-500">{s.raisedBy[0]?.label}</span>
            </button>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function VisitorDetail({ session, onClose }: { session: IntentSession; onClose: () => void }) {
  const advice = visitorAdvice(session.intentScore);
  const sig = session.signals;
  return (
    <Card data-testid="visitor-detail">
      <CardHeader
        title={`Visitor ${visitorId(session.sessionId)}`}
        description={`${intentLabel(session.intentScore)} intent · ${session.conversionProbability.toFixed(1)}% conversion probability`}
        action={
          <Button variant="ghost" onClick={onClose}>
            <IconX />
            Close Details
          </Button>
        }
      />
      <CardBody className="grid gap-6 md:grid-cols-3">
        <div className="space-y-2 text-sm">
          <p className="text-xs font-medium uppercase tracking-wide text-gray-500">Signals</p>
          <Row label="Intent score" value={<ScoreBadge score={session.intentScore} />} />
          <Row label="Page views" value={sig.pageViews} />
          <Row label="Time on site" value={shortDuration(sig.duration)} />
          <Row label="Scroll depth" value={`${sig.scrollDepth}%`} />
          <Row label="Events" value={sig.events} />
          <Row label="Source" value={sig.source} />
          <Row label="Returning" value={sig.returning ? "Yes" : "No"} />
          <Row label="Converted" value={sig.isConverted ? "Yes" : "No"} />
        </div>
        <div className="space-y-2 text-sm">
          <p className="text-xs font-medium uppercase tracking-wide text-gray-500">Raised the score</p>
          {session.raisedBy.length === 0 && <p className="text-gray-500">Nothing stood out</p>}
          {session.raisedBy.map((r) => (
            <p key={r.feature} className="text-emerald-300" data-testid="reason-up">
              + {r.label} <span className="text-xs text-gray-500">({r.impact.toFixed(2)})</span>
            </p>
          ))}
          <p className="pt-2 text-xs font-medium uppercase tracking-wide text-gray-500">Lowered the score</p>
          {session.loweredBy.length === 0 && <p className="text-gray-500">Nothing stood out</p>}
          {session.loweredBy.map((r) => (
            <p key={r.feature} className="text-red-300" data-testid="reason-down">
              − {r.label} <span className="text-xs text-gray-500">({r.impact.toFixed(2)})</span>
            </p>
          ))}
        </div>
        <div className="space-y-2 text-sm">
          <p className="text-xs font-medium uppercase tracking-wide text-gray-500">Recommendation</p>
          {advice.recommendation && <p className="text-gray-200">{advice.recommendation}</p>}
          {advice.flags.map((f) => (
            <Badge key={f} tone="red" className="mr-2">
              {f}
            </Badge>
          ))}
          {!advice.recommendation && advice.flags.length === 0 && <p className="text-gray-400">Keep them engaged with relevant content.</p>}
        </div>
      </CardBody>
    </Card>
  );
}

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <span className="text-gray-400">{label}</span>
      <span className="text-gray-100">{value}</span>
    </div>
  );
}
