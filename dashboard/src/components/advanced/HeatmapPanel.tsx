//! The heatmap panel of Advanced Analytics (spec part 2 "Heatmap panel", §3-9): page URL (first
//! preselected, labels cut at 50), type (Click Heatmap / Scroll Depth / Mouse Movements), opacity 10-100
//! step 10 (default 50), replay / stop / clear, a PNG download of the drawn heat, and the Page Performance,
//! Form Interactions and Scroll Depth Analysis cards. The heat is drawn over the page rebuilt from its latest
//! session recording (rrweb snapshot, in a frame sandboxed without scripts), clicks placed on their element
//! by selector and offset; without a recording, on a page-sized canvas at the reference width (1280 px),
//! saying why. Both are scaled to the panel's width.
import { useEffect, useMemo, useRef, useState } from "react";
import type { HeatmapData, PageSnapshot } from "../../api/heatmap";
import { useHeatmap, usePageSnapshot, usePageUrls } from "../../hooks/heatmap";
import { type HeatmapKind, drawHeatmap, gridLayer, inertSnapshot, pageHeight, pageLayer, placeClicks, urlLabel } from "../../lib/heatmap";
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
  const snapshot = usePageSnapshot(id, url);

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
                <HeatCanvas data={data} kind={kind} opacity={opacity / 100} url={url ?? ""} page={{ snapshot: snapshot.data?.snapshot, loading: snapshot.isPending, error: snapshot.isError }} />
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

/** The page rebuilt from a recording: its frame's document and size (document pixels, at the recorded width). */
interface Rendered {
  doc: Document;
  width: number;
  height: number;
}

/**
 * Rebuilds a recorded snapshot into `host` in a frame sandboxed with `allow-same-origin` only (rrweb-snapshot
 * forces that sandbox; no `allow-scripts`), at the recorded viewport width and the document's full height.
 * rrweb-snapshot is loaded only here. Returns the frame's cleanup.
 */
function useRenderedPage(host: React.RefObject<HTMLDivElement | null>, snapshot: PageSnapshot | null | undefined) {
  const [rendered, setRendered] = useState<Rendered | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setRendered(null);
    setFailed(false);
    const root = host.current;
    if (!snapshot || !root) return;
    let frame: HTMLIFrameElement | null = null;
    let resized: ResizeObserver | null = null;
    let live = true;
    import("rrweb-snapshot")
      .then(({ rebuildIntoSandboxedIframe, createCache, createMirror }) => {
        if (!live) return;
        const width = Math.max(240, Math.min(4000, snapshot.width || 1280));
        const built = rebuildIntoSandboxedIframe(inertSnapshot(snapshot.node) as Parameters<typeof rebuildIntoSandboxedIframe>[0], {
          root,
          cache: createCache(),
          mirror: createMirror(),
          iframeAttributes: { title: "Recorded page", "data-testid": "heatmap-frame", referrerpolicy: "no-referrer", tabindex: "-1", scrolling: "no" },
        });
        frame = built.iframe;
        if (frame.sandbox.contains("allow-scripts")) throw new Error("The page frame would run the recorded page's scripts");
        const doc = frame.contentDocument;
        if (!doc?.documentElement) throw new Error("The recorded page did not rebuild");
        Object.assign(frame.style, { position: "absolute", left: "0", top: "0", width: `${width}px`, height: `${snapshot.height || 800}px`, border: "0", pointerEvents: "none", transformOrigin: "0 0", background: "#fff" });
        let height = 0;
        // Images and fonts move the page after it is built (a broken image grows to its icon and pushes what
        // follows it): on each, the frame takes the page's height again and the clicks are placed again.
        const measure = () => {
          if (!live || !frame) return;
          height = Math.max(doc.documentElement.scrollHeight, doc.body?.scrollHeight ?? 0, 100);
          frame.style.height = `${height}px`;
          setRendered({ doc, width, height });
        };
        // Any other change of the page's size only places the clicks again: resizing the frame here could grow
        // a page sized to its viewport without end.
        const place = () => live && setRendered({ doc, width, height });
        doc.addEventListener("load", measure, true);
        doc.addEventListener("error", measure, true);
        doc.fonts?.addEventListener("loadingdone", measure);
        const Observer = doc.defaultView?.ResizeObserver;
        if (Observer) {
          resized = new Observer(place);
          resized.observe(doc.documentElement);
        }
        measure();
      })
      .catch((e) => {
        console.error("heatmap page rendering failed", e);
        frame?.remove();
        if (live) setFailed(true);
      });
    return () => {
      live = false;
      resized?.disconnect();
      frame?.remove();
    };
  }, [host, snapshot]);
  return { rendered, failed };
}

/** The page as an image for the PNG: its frame's document in an SVG foreignObject (no new dependency). */
async function pageImage(doc: Document, width: number, height: number): Promise<HTMLImageElement | null> {
  try {
    const html = new XMLSerializer().serializeToString(doc.documentElement);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><foreignObject width="100%" height="100%">${html}</foreignObject></svg>`;
    const img = new Image();
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
    await img.decode();
    return img;
  } catch {
    return null;
  }
}

function HeatCanvas({ data, kind, opacity, url, page }: { data: HeatmapData; kind: HeatmapKind; opacity: number; url: string; page: { snapshot: PageSnapshot | null | undefined; loading: boolean; error: boolean } }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [cleared, setCleared] = useState(false);
  const frame = useRef(0);
  const { rendered, failed } = useRenderedPage(host, page.snapshot);
  // Over the rendered page the scale is the panel's width over the recorded width; on the page-sized canvas
  // it is over the reference width.
  const scale = width > 0 ? width / (rendered ? rendered.width : data.referenceWidth) : 0;
  const height = Math.round((rendered ? rendered.height : pageHeight(data)) * scale);
  const placement = useMemo(() => {
    if (!rendered) return null;
    const view = rendered.doc.defaultView;
    return placeClicks(data.elementClicks, rendered.width, rendered.height, (selector) => {
      let el: Element | null = null;
      try {
        el = rendered.doc.querySelector(selector);
      } catch {
        return null;
      }
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { left: r.left + (view?.scrollX ?? 0), top: r.top + (view?.scrollY ?? 0), width: r.width, height: r.height };
    });
  }, [rendered, data]);
  const layer = useMemo(
    () => (rendered && placement ? pageLayer(data, placement.placed, rendered.width, scale) : gridLayer(data, scale)),
    [rendered, placement, data, scale],
  );
  const points = kind === "click" ? layer.clicks.length : kind === "movement" ? layer.moves.length : layer.scroll.length;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.floor(el.clientWidth)));
    observer.observe(el);
    setWidth(Math.floor(el.clientWidth));
    return () => observer.disconnect();
  }, []);

  // The frame is laid out at the recorded width and scaled to the panel's (a new frame needs it too).
  // biome-ignore lint/correctness/useExhaustiveDependencies: rendered is a trigger: a new frame is unscaled
  useEffect(() => {
    const f = host.current?.querySelector("iframe");
    if (f && scale > 0) f.style.transform = `scale(${scale})`;
  }, [scale, rendered]);

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
    else drawHeatmap(ctx, layer, kind, opacity);
  }, [layer, kind, opacity, scale, playing, cleared, width, height]);

  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const replay = () => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx) return;
    setPlaying(true);
    setCleared(false);
    const start = performance.now();
    const step = (now: number) => {
      const shown = Math.ceil(Math.min(1, (now - start) / REPLAY_MS) * points);
      drawHeatmap(ctx, layer, kind, opacity, shown);
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
  const save = (out: HTMLCanvasElement) =>
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
  const download = async () => {
    const source = canvas.current;
    if (!source) return;
    // The PNG holds the heat as shown: over the page's rendering when there is one, else on the panel's
    // dark background.
    const compose = (page: HTMLImageElement | null) => {
      const out = document.createElement("canvas");
      out.width = source.width;
      out.height = source.height;
      const ctx = out.getContext("2d");
      if (!ctx) return out;
      ctx.fillStyle = rendered ? "#ffffff" : "#111827";
      ctx.fillRect(0, 0, out.width, out.height);
      if (page) ctx.drawImage(page, 0, 0, out.width, out.height);
      ctx.drawImage(source, 0, 0);
      return out;
    };
    const page = rendered ? await pageImage(rendered.doc, rendered.width, rendered.height) : null;
    try {
      save(compose(page));
    } catch {
      // A page image the browser counts as foreign taints the canvas: the heat alone, on white.
      save(compose(null));
    }
  };

  const note = rendered
    ? `Drawn over this page as recorded on ${new Date(page.snapshot?.recordedAt ?? 0).toLocaleString()} at ${rendered.width} px wide (scripts never run); ${placement?.bySelector ?? 0} of ${data.elementClicks.reduce((n, c) => n + c.count, 0)} clicks placed on their element, the rest by their place on the page.`
    : page.loading || (page.snapshot && !failed)
      ? "Rendering the recorded page…"
      : failed || page.error
        ? `The recorded page could not be ${page.error ? "loaded" : "rendered"}: shown on a page-sized canvas (${data.referenceWidth} px wide, scaled to fit).`
        : `No session recording of this page yet (recordings need the enhanced tracking level and a visit with recording on): shown on a page-sized canvas (${data.referenceWidth} px wide, scaled to fit).`;

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
        <p className="mb-3 text-xs text-gray-500" data-testid="heatmap-note" data-rendered={rendered ? "page" : "canvas"}>
          {note}
        </p>
        <div ref={box} className={`relative w-full overflow-hidden rounded-lg border border-gray-800 ${rendered ? "bg-white" : "bg-gray-900"}`} style={{ height: height || undefined }}>
          <div ref={host} className="absolute inset-0" aria-hidden="true" />
          <canvas ref={canvas} data-testid="heatmap-canvas" className="pointer-events-none absolute left-0 top-0 block" style={{ width, height }} />
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
      <CardHeader title="Form Interactions" description="Per field: visits that used it, left it filled, and left the form there without submitting." />
      <CardBody>
        {data.formInteractions.length === 0 ? (
          <p className="py-4 text-center text-sm text-gray-500">No form fields used on this page.</p>
        ) : (
          <ul className="divide-y divide-gray-800 text-sm">
            {data.formInteractions.map((f) => (
              <li key={`${f.form} ${f.element}`} className="py-2" data-testid="form-field">
                <p className="truncate font-mono text-xs text-gray-300" title={f.form ? `${f.element} in ${f.form}` : f.element}>
                  {f.element}
                </p>
                <p className="text-xs text-gray-500">
                  {f.interactions} interactions · {f.completions} completions · {f.dropOffs} drop-offs ({f.dropOffRate.toFixed(1)}%)
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
