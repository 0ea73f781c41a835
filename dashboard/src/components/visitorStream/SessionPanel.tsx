//! The session detail side panel: Activity (where, what device, how long, which pages) and Journey (the real
//! page-by-page path with the time on each page and the events in between).
import * as RadixDialog from "@radix-ui/react-dialog";
import { useState } from "react";
import type { StreamSession } from "../../api/visitorStream";
import { useSessionJourney } from "../../hooks/visitorStream";
import { formatValue } from "../../lib/format";
import { formatDuration } from "../../lib/time";
import { browserText, deviceText, locationText, minutesSeconds } from "../../lib/visitorStream";
import { EmptyText, QueryState, SkeletonRows } from "../page/QueryState";
import { IconX } from "../ui/icons";
import { TabsContent, TabsList, TabsRoot, TabsTrigger } from "../ui/Tabs";

type Tab = "activity" | "journey";

export function SessionPanel({ session, live, onClose }: { session: StreamSession | undefined; live: boolean; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>("activity");
  return (
    <RadixDialog.Root open={!!session} onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <RadixDialog.Content
          aria-describedby={undefined}
          data-testid="session-panel"
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col border-l border-gray-800 bg-gray-900 shadow-2xl shadow-black/60 outline-none"
        >
          {session && (
            <>
              <div className="flex items-start justify-between gap-4 border-b border-gray-800 px-6 py-5">
                <div className="min-w-0">
                  <RadixDialog.Title className="text-lg font-semibold text-white">Session Details</RadixDialog.Title>
                  <p className="mt-1 truncate text-sm text-gray-400">{locationText(session)}</p>
                </div>
                <RadixDialog.Close aria-label="Close panel" className="rounded-md p-1 text-gray-400 hover:bg-gray-800 hover:text-white">
                  <IconX className="h-4 w-4" />
                </RadixDialog.Close>
              </div>
              <TabsRoot value={tab} onChange={setTab} className="flex min-h-0 flex-1 flex-col">
                <div className="px-6 pt-4">
                  <TabsList>
                    <TabsTrigger value="activity">Activity</TabsTrigger>
                    <TabsTrigger value="journey">Journey</TabsTrigger>
                  </TabsList>
                </div>
                <TabsContent value="activity" className="min-h-0 flex-1 overflow-y-auto px-6 py-4">
                  <Activity session={session} />
                </TabsContent>
                <TabsContent value="journey" className="min-h-0 flex-1 overflow-y-auto px-6 py-4">
                  <Journey session={session} live={live} />
                </TabsContent>
              </TabsRoot>
            </>
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

function Activity({ session }: { session: StreamSession }) {
  const rows: [string, string][] = [
    ["Location", locationText(session)],
    ["Device", deviceText(session.deviceType)],
    ["Browser", browserText(session.browser)],
    ["OS", session.os || "Unknown"],
    ["Duration", minutesSeconds(session.sessionDuration)],
    ["Page Views", String(session.pageViewCount)],
    ["Entry Page", session.entryPage],
    ["Exit Page", session.exitPage],
    ["Conversion Value", formatValue(session.conversionValue)],
  ];
  return (
    <dl className="divide-y divide-gray-800 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="flex justify-between gap-4 py-2.5">
          <dt className="text-gray-400">{label}</dt>
          <dd className="min-w-0 truncate text-right text-gray-100">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Journey({ session, live }: { session: StreamSession; live: boolean }) {
  const journey = useSessionJourney(session.websiteId, session.id, live);
  return (
    <QueryState query={journey} skeleton={<SkeletonRows rows={4} />} isEmpty={(j) => j.steps.length === 0} empty={<EmptyText>No pages recorded yet</EmptyText>}>
      {(j) => (
        <>
          <ol className="relative space-y-4 border-l border-gray-800 pl-5" data-testid="journey-steps">
            {j.steps.map((step, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a journey's steps are append-only; a page may repeat
              <li key={i} className="relative" data-testid="journey-step">
                <span aria-hidden className="absolute -left-[1.72rem] top-1 h-3 w-3 rounded-full border-2 border-gray-900 bg-indigo-400" />
                <div className="flex items-baseline justify-between gap-3">
                  <p className="min-w-0 truncate font-mono text-sm text-white" data-testid="journey-page">
                    {step.page}
                  </p>
                  <span className="shrink-0 text-xs text-gray-400">{formatDuration(step.duration)}</span>
                </div>
                {step.events.length > 0 && (
                  <ul className="mt-1.5 space-y-1">
                    {step.events.map((event, k) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: events of one step never reorder
                      <li key={k} className="text-xs text-gray-300">
                        <span className={event.kind === "conversion" ? "text-emerald-300" : "text-sky-300"}>{event.label}</span>
                        {event.value != null && <span className="ml-1 text-gray-400">({formatValue(event.value, event.currency ?? undefined)})</span>}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
          {j.truncated && <p className="mt-4 text-xs text-gray-500">A long visit: only its first 1,000 hits are shown.</p>}
        </>
      )}
    </QueryState>
  );
}
