//! The heatmap panel of Advanced Analytics (spec part 2 "Heatmap panel", §3-9): page URL (first
//! preselected, labels cut at 50), type (Click Heatmap / Scroll Depth / Mouse Movements), opacity 10-100
//! step 10 (default 50), replay / stop / clear, a PNG download of the drawn heat, and the Page Performance,
//! Form Interactions and Scroll Depth Analysis cards. The heat is drawn on a page-sized canvas at the
//! reference width (1280 px) scaled to the panel's width.
import { useEffect, useRef, useState } from "react";
import type { HeatmapData } from "../../api/heatmap";
import { useHeatmap, usePageUrls } from "../../hooks/heatmap";
import { type HeatmapKind, drawHeatmap, pageHeight, urlLabel } from "../../lib/heatmap";
import { QueryState, SkeletonRows } from "../page/QueryState";
import { Slider } from "../ui/Slider";
import { Button, Card, CardBody, CardHeader, EmptyState, Label, Select } from "../ui/primitives";

const KINDS: { value: HeatmapKind; label: string }[] = [
  { value: "click", label: "Click Heatmap" },
  { value: "scroll", label: "Scroll Depth" },
  { value: "movement", label: "Mouse Movements" },
];

/** How long a replay takes to draw every point. */
const REPLAY_MS = 3000;

export function HeatmapPanel({ websiteId, timeRange }: { websiteId: string; timeRange: string }) {
  if (!websiteId || websiteId.trim() === "") {
    return <EmptyState title="No Website Selected" description="Please select a website to view heatmap analytics" />;
  }
  return <Heatmaps id={Number(websiteId)} range={timeRange || "7d"} />;
}

function Heatmaps({ id, range }: { id: number; range: string }) {
  const urls = usePageUrls(id);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const url = chosen && urls.data?.includes(chosen) ? chosen : urls.data?.[0];
  const [kind, setKind] = useState<HeatmapKind>("click");
  const [opacity, setOpacity] = useState(50);
  const heatmap = useHeatmap(id, url, range);

  return (
    <QueryState
      query={urls}
      skeleton={<SkeletonRows rows={3} className="h-24" />}
      isEmpty={(u) => u.length === 0}
      empty={<EmptyState title="No pages yet" description="Heatmaps appear once the tracking script has recorded page views on this site." />}
    >
      {(list) => (
        <div className="space-y-6">
          <Card>
            <CardBody className="grid gap-4 sm:grid-cols-3">
              <div>
                <Label htmlFor="heatmap-url">Page URL</Label>
                <Select id="heatmap-url" value={url} onChange={(e) => setChosen(e.target.value)}>
                  {list.map((u) => (
                    <option key={u} value={u} title={u}>
                      {urlLabel(u)}
                    </option>
                  ))}
                </Select>
              </div>
              <div>
                <Label htmlFor="heatmap-kind">Heatmap Type</Label>
                <Select id="heatmap-kind" value={kind} onChange={(e) => setKind(e.target.value as HeatmapKind)}>
                  {KINDS.map((k) => (
                    <option key={k.value} value={k.value}>
                      {k.label}
                    </option>
                  ))}
                </Select>
              </div>
              <div>
                <p className="mb-1.5 text-sm font-medium text-gray-300">
                  Opacity <span data-testid="heatmap-opacity">{opacity}%</span>
                </p>
                <Slider min={10} max={100} step={10} value={[opacity]} onValueChange={([v]) => setOpacity(v ?? 50)} thumbLabels={["Opacity"]} className="mt-3" />
              </div>
            </CardBody>
          </Card>
          <QueryState query={heatmap} skeleton={<SkeletonRows rows={2} className="h-40" />}>
            {(data) => (
              <>
                <HeatCanvas data={data} kind={kind} opacity={opacity / 100} url={url ?? ""} />
                <div className="grid gap-6 lg:grid-cols-3">
                  <PerformanceCard data={data} />
                  <FormsCard data={data} />
                  <ScrollCard data={data} />
                </div>
              </>
            )}
          </QueryState>
        </div>
      )}
    </QueryState>
  );
}

function HeatCanvas({ data, kind, opacity, url }: { data: HeatmapData; kind: HeatmapKind; opacity: number; url: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [cleared, setCleared] = useState(false);
  const frame = useRef(0);
  const scale = width > 0 ? width / data.referenceWidth : 0;
  const height = Math.round(pageHeight(data) * scale);
  const points = kind === "click" ? data.clicks.length : kind === "movement" ? data.mouseMovements.length : data.scrollDepth.length;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.floor(el.clientWidth)));
    observer.observe(el);
    setWidth(Math.floor(el.clientWidth));
    return () => observer.disconnect();
  }, []);

  // A new page, range or type shows the whole heat again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: data and kind are the triggers, not inputs
  useEffect(() => {
    cancelAnimationFrame(frame.current);
    setPlaying(false);
    setCleared(false);
  }, [data, kind]);

  useEffect(() => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx || scale === 0 || playing) return;
    // Sized here, not as attributes: resizing a canvas wipes it, so it is redrawn in the same step.
    if (ctx.canvas.width !== width || ctx.canvas.height !== height) {
      ctx.canvas.width = Math.max(1, width);
      ctx.canvas.height = Math.max(1, height);
    }
    if (cleared) ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    else drawHeatmap(ctx, data, kind, opacity, scale);
  }, [data, kind, opacity, scale, playing, cleared, width, height]);

  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const replay = () => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx) return;
    setPlaying(true);
    setCleared(false);
    const start = performance.now();
    const step = (now: number) => {
      const shown = Math.ceil((Math.min(1, (now - start) / REPLAY_MS)) * points);
      drawHeatmap(ctx, data, kind, opacity, scale, shown);
      if (shown < points) frame.current = requestAnimationFrame(step);
      else setPlaying(false);
    };
    frame.current = requestAnimationFrame(step);
  };
  const stop = () => {
    cancelAnimationFrame(frame.current);
    setPlaying(false);
  };
  const clear = () => {
    stop();
    setCleared(true);
    const ctx = canvas.current?.getContext("2d");
    ctx?.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  };
  const download = () => {
    const source = canvas.current;
    if (!source) return;
    // The PNG holds the heat on the panel's dark page background, as shown.
    const out = document.createElement("canvas");
    out.width = source.width;
    out.height = source.height;
    const ctx = out.getContext("2d");
    if (!ctx) return;
    ctx.fillStyle = "#111827";
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.drawImage(source, 0, 0);
    out.toBlob((blob) => {
      if (!blob) return;
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = `heatmap-${kind}-${url.replace(/[^A-Za-z0-9-]+/g, "_").replace(/^_|_$/g, "") || "root"}-${new Date().toISOString().slice(0, 10)}.png`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    }, "image/png");
  };

  return (
    <Card>
      <CardHeader
        title={KINDS.find((k) => k.value === kind)?.label ?? "Heatmap"}
        description={`${url} · ${points} ${kind === "scroll" ? "depth bands" : kind === "click" ? "click spots" : "positions"}`}
        action={
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="outline" disabled={playing || points === 0} onClick={replay}>
              Replay
            </Button>
            <Button size="sm" variant="outline" disabled={!playing} onClick={stop}>
              Stop
            </Button>
            <Button size="sm" variant="outline" onClick={clear}>
              Clear
            </Button>
            <Button size="sm" onClick={download}>
              Download PNG
            </Button>
          </div>
        }
      />
      <CardBody>
        <p className="mb-3 text-xs text-gray-500" data-testid="heatmap-note">
          No recording of this page is drawn under the heat: shown on a page-sized canvas ({data.referenceWidth} px wide, scaled to fit).
        </p>
        <div ref={box} className="relative w-full overflow-hidden rounded-lg border border-gray-800 bg-gray-900">
          <canvas ref={canvas} data-testid="heatmap-canvas" className="block" style={{ width, height }} />
          {points === 0 && <p className="absolute inset-0 flex items-center justify-center text-sm text-gray-500">No data of this type for this page in the range.</p>}
        </div>
      </CardBody>
    </Card>
  );
}

function Metric({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center justify-between py-1.5 text-sm">
      <span className="text-gray-400">{label}</span>
      <span className="font-medium text-white">{value}</span>
    </div>
  );
}

function PerformanceCard({ data }: { data: HeatmapData }) {
  const m = data.pageMetrics;
  return (
    <Card>
      <CardHeader title="Page Performance" />
      <CardBody>
        <Metric label="Total Visitors" value={String(m.totalVisitors)} />
        <Metric label="Avg. Time on Page" value={`${m.averageTimeOnPage.toFixed(1)}s`} />
        <Metric label="Bounce Rate" value={`${m.bounceRate.toFixed(1)}%`} />
        <Metric label="Conversion Rate" value={`${m.conversionRate.toFixed(1)}%`} />
      </CardBody>
    </Card>
  );
}

function FormsCard({ data }: { data: HeatmapData }) {
  return (
    <Card>
      <CardHeader title="Form Interactions" description="Visits that used each field, and how many submitted." />
      <CardBody>
        {data.formInteractions.length === 0 ? (
          <p className="py-4 text-center text-sm text-gray-500">No form fields used on this page.</p>
        ) : (
          <ul className="divide-y divide-gray-800 text-sm">
            {data.formInteractions.map((f) => (
              <li key={f.element} className="py-2">
                <p className="truncate font-mono text-xs text-gray-300" title={f.element}>
                  {f.element}
                </p>
                <p className="text-xs text-gray-500">
                  {f.interactions} interactions · {f.completions} completions · {f.dropOffRate.toFixed(1)}% drop-off
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

function ScrollCard({ data }: { data: HeatmapData }) {
  return (
    <Card>
      <CardHeader title="Scroll Depth Analysis" />
      <CardBody>
        {data.scrollDepth.length === 0 ? (
          <p className="py-4 text-center text-sm text-gray-500">No scroll data for this page.</p>
        ) : (
          <ul className="space-y-1.5 text-sm">
            {data.scrollDepth
              .filter((s) => s.depth > 0 && s.depth % 25 === 0)
              .map((s) => (
                <li key={s.depth}>
                  <div className="flex justify-between text-xs text-gray-400">
                    <span>{s.depth}%</span>
                    <span>
                      {s.percentage.toFixed(1)}% · {s.visitors} views
                    </span>
                  </div>
                  <div className="mt-1 h-1.5 rounded-full bg-gray-800">
                    <div className="h-full rounded-full bg-indigo-500" style={{ width: `${s.percentage}%` }} />
                  </div>
                </li>
              ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
