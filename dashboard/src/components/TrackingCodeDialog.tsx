//! Tracking Code dialog: level badge and description, script URL, the embed snippet in each variant (default
//! personalised, Basic, Professional, Legacy), custom event examples.
import { useState } from "react";
import type { Website } from "../api/types";
import { CONVERSION_EXAMPLE, CUSTOM_EVENT_EXAMPLE, NOT_FOUND_EXAMPLE, SNIPPET_VARIANTS, scriptUrlFor, trackingLevelInfo, variantSnippet } from "../lib/website";
import type { SnippetVariant } from "../lib/website";
import { Tabs } from "./ui/Tabs";
import { CopyButton } from "./CopyButton";
import { Dialog } from "./ui/Dialog";
import { Badge } from "./ui/primitives";

function CodeBlock({ children, testId }: { children: string; testId?: string }) {
  return (
    <pre data-testid={testId} className="overflow-x-auto whitespace-pre-wrap break-all rounded-lg border border-gray-800 bg-gray-950 p-3 font-mono text-xs leading-relaxed text-emerald-300">
      {children}
    </pre>
  );
}

export function TrackingCodeDialog({ website, open, onClose }: { website: Website | undefined; open: boolean; onClose: () => void }) {
  const [variant, setVariant] = useState<SnippetVariant>("personalised");
  if (!website) return null;
  const level = trackingLevelInfo(website.trackingLevel);
  const scriptUrl = scriptUrlFor(website, window.location.origin);
  const snippet = variantSnippet(variant, website, scriptUrl, window.location.origin);
  const variantInfo = SNIPPET_VARIANTS.find((v) => v.value === variant) ?? SNIPPET_VARIANTS[0];
  return (
    <Dialog open={open} onClose={onClose} size="lg" title="Tracking Code" description={`Add this code to every page of ${website.name} to start tracking.`}>
      <div className="space-y-6">
        <div className="flex items-start gap-3 rounded-lg border border-indigo-500/20 bg-indigo-500/5 p-3">
          <Badge tone="indigo">{level.label} tracking</Badge>
          <p className="text-sm text-gray-300" data-testid="tracking-level-description">{level.description}</p>
        </div>
        <section>
          <div className="mb-2 flex items-center justify-between">
            <h3 className="text-sm font-medium text-gray-200">Script URL</h3>
            <CopyButton text={scriptUrl} label="Copy URL" copiedLabel="Copied!" successTitle="URL copied!" successDescription="The script URL has been copied to your clipboard." />
          </div>
          <CodeBlock testId="script-url">{scriptUrl}</CodeBlock>
        </section>
        <section>
          <div className="mb-2 flex items-center justify-between">
            <h3 className="text-sm font-medium text-gray-200">Embed code</h3>
            <CopyButton text={snippet} label="Copy Code" copiedLabel="Copied!" successTitle="Tracking code copied!" successDescription="The tracking code has been copied to your clipboard." />
          </div>
          <div className="mb-2 overflow-x-auto">
            <Tabs<SnippetVariant> value={variant} onChange={setVariant} items={SNIPPET_VARIANTS.map((v) => ({ value: v.value, label: v.label }))} />
          </div>
          <p className="mb-2 text-xs text-gray-400" data-testid="snippet-variant-description">{variantInfo.description}</p>
          <p className="mb-2 text-xs text-gray-500">Paste it just before the closing &lt;/head&gt; tag.</p>
          <CodeBlock testId="embed-snippet">{snippet}</CodeBlock>
        </section>
        <section>
          <h3 className="mb-2 text-sm font-medium text-gray-200">Custom events</h3>
          <p className="mb-2 text-xs text-gray-500">Once the script is loaded, window.tracker records events and conversions.</p>
          <div className="space-y-2">
            <CodeBlock>{CUSTOM_EVENT_EXAMPLE}</CodeBlock>
            <CodeBlock>{CONVERSION_EXAMPLE}</CodeBlock>
          </div>
        </section>
        <section>
          <h3 className="mb-2 text-sm font-medium text-gray-200">Not found pages</h3>
          <p className="mb-2 text-xs text-gray-500">Add this line to the page your site shows for a missing page to see which addresses visitors could not find.</p>
          <CodeBlock testId="not-found-snippet">{NOT_FOUND_EXAMPLE}</CodeBlock>
        </section>
      </div>
    </Dialog>
  );
}
