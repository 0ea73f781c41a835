//! The most common paths as a flow (recharts Sankey): a node per page and depth, links sized by visits.
//! Loaded lazily with recharts.
import { ResponsiveContainer, Sankey, Tooltip } from "recharts";
import type { SankeyNodeProps } from "recharts";
import type { JourneyPath } from "../../api/funnels";
import { flowData } from "../../lib/journeys";

/** A node bar with its page written beside it. */
function FlowNode({ x, y, width, height, payload }: SankeyNodeProps) {
  const name = String((payload as { name?: unknown }).name ?? "");
  return (
    <g>
      <rect x={x} y={y} width={width} height={height} fill="#38bdf8" rx={2} />
      <text x={x + width + 6} y={y + height / 2} dy="0.35em" fontSize={12} fill="#d1d5db">
        {name.length > 28 ? `${name.slice(0, 27)}…` : name}
      </text>
    </g>
  );
}

export default function JourneyFlow({ paths }: { paths: JourneyPath[] }) {
  const data = flowData(paths);
  if (data.links.length === 0) {
    return <p className="py-6 text-center text-sm text-gray-500">Every common path is a single page: nothing flows yet.</p>;
  }
  return (
    // A flow needs width to be legible: on a phone it scrolls sideways rather than squeezing.
    <div className="overflow-x-auto" data-testid="journey-flow">
      <div className="h-80 min-w-[640px]">
        <ResponsiveContainer width="100%" height="100%">
          <Sankey
            data={data}
            nodePadding={24}
            nodeWidth={10}
            margin={{ top: 8, right: 140, bottom: 8, left: 8 }}
            link={{ stroke: "#6366f1", strokeOpacity: 0.35 }}
            node={FlowNode}
          >
            <Tooltip contentStyle={{ background: "var(--color-gray-900)", border: "1px solid var(--color-gray-700)", borderRadius: 8, color: "var(--color-gray-100)" }} />
          </Sankey>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
