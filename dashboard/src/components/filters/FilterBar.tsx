//! The filter bar above a screen's cards: one chip per condition with its remove button, "Clear all", the "Add
//! filter" menu, the saved segments' menu, and a slot at its end for the screen's range picker. When the daemon refuses the URL's filters
//! (a hand-edited link), the bar shows its message and a way out instead of leaving the screen blank.
import * as RadixMenu from "@radix-ui/react-dropdown-menu";
import { type ReactNode, useState } from "react";
import { useFilters } from "../../hooks/filters";
import { serverMessage } from "../../lib/errors";
import { FILTER_DIMENSIONS, type FilterDimension, PROPERTY, describeFilter } from "../../lib/filters";
import { IconFilter, IconPlus, IconX } from "../ui/icons";
import { Button } from "../ui/primitives";
import { AddFilterDialog } from "./AddFilterDialog";
import { refusedFilters } from "./Refused";
import { SegmentsMenu } from "./SegmentsMenu";

/** `period` is the screen's period as query text (hooks/period.ts), for the menu's suggestions; `extra` is the
 * screen's range picker. Without `websiteId` (a screen of all the account's sites) the bar shows the URL's chips
 * to remove, with no menus: suggestions and segments are a site's. */
export function FilterBar({ websiteId, period, error, extra }: { websiteId?: number; period: string; error?: unknown; extra?: ReactNode }) {
  const { filters, text, active, add, remove, clear } = useFilters();
  const [choosing, setChoosing] = useState<FilterDimension | null>(null);
  const refused = refusedFilters(active, error);
  return (
    <div className="space-y-3">
      <div className="flex min-w-0 flex-wrap items-center gap-2" data-testid="filter-bar">
        {filters.map((entry, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list's order is its identity (remove by index)
          <FilterChip key={`${i}-${JSON.stringify(entry)}`} label={describeFilter(entry)} onRemove={() => remove(i)} />
        ))}
        {text !== null && filters.length === 0 ? <FilterChip label={`Filters ${text}`} onRemove={clear} /> : null}
        {websiteId === undefined ? null : (
          <RadixMenu.Root modal={false}>
            <RadixMenu.Trigger asChild>
              <Button variant="outline" size="sm">
                {active ? <IconPlus /> : <IconFilter />}
                Add filter
              </Button>
            </RadixMenu.Trigger>
            <RadixMenu.Portal>
              <RadixMenu.Content
                align="start"
                sideOffset={4}
                className="z-50 max-h-[min(24rem,var(--radix-dropdown-menu-content-available-height))] w-52 overflow-y-auto rounded-lg border border-gray-800 bg-gray-900 py-1 shadow-xl shadow-black/40"
              >
                {FILTER_DIMENSIONS.map((d) => (
                  <RadixMenu.Item
                    key={d.dimension}
                    onSelect={() => setChoosing(d)}
                    className="flex w-full cursor-default items-center px-3 py-2 text-left text-sm text-gray-200 outline-none data-[highlighted]:bg-gray-800"
                  >
                    {d.label}
                  </RadixMenu.Item>
                ))}
                <RadixMenu.Separator className="my-1 h-px bg-gray-800" />
                <RadixMenu.Item
                  onSelect={() => setChoosing(PROPERTY)}
                  className="flex w-full cursor-default items-center px-3 py-2 text-left text-sm text-gray-200 outline-none data-[highlighted]:bg-gray-800"
                >
                  Property…
                </RadixMenu.Item>
              </RadixMenu.Content>
            </RadixMenu.Portal>
          </RadixMenu.Root>
        )}
        {websiteId === undefined ? null : <SegmentsMenu websiteId={websiteId} />}
        {active ? (
          <Button variant="ghost" size="sm" onClick={clear}>
            Clear all
          </Button>
        ) : null}
        {extra ? <div className="ml-auto">{extra}</div> : null}
      </div>
      {refused ? (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-500/30 bg-amber-500/10 px-4 py-3 text-sm text-amber-200" data-testid="filters-refused">
          <span className="min-w-0 break-words">These filters cannot be applied: {serverMessage(error)}</span>
          <Button variant="secondary" size="sm" onClick={clear}>
            Clear filters
          </Button>
        </div>
      ) : null}
      {choosing && websiteId !== undefined ? (
        <AddFilterDialog
          websiteId={websiteId}
          period={period}
          dimension={choosing}
          filters={filters}
          onAdd={(c) => {
            add(c);
            setChoosing(null);
          }}
          onClose={() => setChoosing(null)}
        />
      ) : null}
    </div>
  );
}

function FilterChip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <span
      className="inline-flex min-w-0 max-w-full items-center gap-1 rounded-full bg-indigo-500/15 py-1 pl-3 pr-1 text-xs font-medium text-indigo-200 ring-1 ring-inset ring-indigo-500/30"
      data-testid="filter-chip"
    >
      <span className="truncate" title={label}>
        {label}
      </span>
      <button
        type="button"
        onClick={onRemove}
        aria-label={`Remove filter ${label}`}
        className="shrink-0 rounded-full p-0.5 text-indigo-300 hover:bg-indigo-500/30 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400"
      >
        <IconX className="h-3.5 w-3.5" />
      </button>
    </span>
  );
}
