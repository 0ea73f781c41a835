//! "Add filter" for one dimension: an operator, and values picked from the dimension's top values among what the
//! other filters admit (the breakdown endpoint, 20 rows) or typed. Typing narrows the suggestions on the server
//! (a case-insensitive `contains`), so a value outside the top 20 can still be found. The "Property" entry asks
//! for the property's name first, suggesting the keys the events the filters admit carried in the period.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { keys } from "../../api/keys";
import type { Breakdown } from "../../api/types";
import { useSiteReader } from "../../hooks/analytics";
import {
  breakdownSegment,
  type Condition,
  type FilterDimension,
  type FilterOperator,
  type Filters,
  OPERATORS,
  encodeFilters,
  filterValue,
  filtersQuery,
  filtersWithout,
  PROPERTY,
  propertyDimension,
  suggestionLabel,
} from "../../lib/filters";
import { formatNumber } from "../../lib/format";
import { PropertyKeySuggestions } from "../events/PropertyKeySuggestions";
import { Dialog } from "../ui/Dialog";
import { IconCheck } from "../ui/icons";
import { Button, ErrorNote, Input, Label, Select, Spinner, cx } from "../ui/primitives";

const SUGGESTIONS = 20;

/** The dimension's values among what `filters` admits, narrowed to those containing `typed`. Countries are stored
 * as codes but typed as names, so they are narrowed here, by name or code, among the top 100. */
function useSuggestions(websiteId: number, period: string, dimension: FilterDimension, filters: Filters, typed: string, enabled: boolean) {
  const byName = dimension.dimension === "visit:country";
  const needle = typed.trim();
  const narrowed = needle === "" || byName ? filters : [...filters, ["contains", dimension.dimension, [needle], { case_sensitive: false }]];
  const text = encodeFilters(narrowed);
  const limit = byName ? 100 : SUGGESTIONS;
  const reader = useSiteReader();
  const query = useQuery({
    queryKey: keys.site(websiteId).read(`breakdown/${dimension.breakdown}`, { period, limit, filters: text }),
    queryFn: () =>
      reader.get<Breakdown>(`/api/websites/${websiteId}/breakdown/${breakdownSegment(dimension.breakdown)}?${period}&limit=${limit}${filtersQuery(text)}`),
    enabled,
    // While typing a value, the last list stays up; a new property name is another list, shown once loaded.
    placeholderData: dimension.dimension.startsWith("event:props:") ? undefined : keepPreviousData,
  });
  const rows = query.data?.rows;
  const shown = byName && rows && needle ? rows.filter((r) => suggestionLabel(dimension.dimension, r.value).toLowerCase().includes(needle.toLowerCase())) : rows;
  return { ...query, rows: shown?.slice(0, SUGGESTIONS) };
}

export function AddFilterDialog({
  websiteId,
  period,
  dimension: chosen,
  filters,
  onAdd,
  onClose,
}: {
  websiteId: number;
  period: string;
  dimension: FilterDimension;
  filters: Filters;
  onAdd: (c: Condition) => void;
  onClose: () => void;
}) {
  const [operator, setOperator] = useState<FilterOperator>("is");
  const [typed, setTyped] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const [propertyKey, setPropertyKey] = useState("");
  const asksKey = chosen.dimension === PROPERTY.dimension;
  const dimension = asksKey ? propertyDimension(propertyKey) : chosen;
  const ready = !asksKey || propertyKey.trim() !== "";
  const suggestions = useSuggestions(websiteId, period, dimension, filtersWithout(filters, dimension.dimension), typed, ready);
  const ids = useId();
  const values = picked.length > 0 ? picked : typed.trim() ? [typed.trim()] : [];

  function toggle(value: string) {
    setPicked((p) => (p.includes(value) ? p.filter((v) => v !== value) : [...p, value]));
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Filter by ${chosen.label.toLowerCase()}`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={values.length === 0 || !ready} onClick={() => onAdd({ operator, dimension: dimension.dimension, values })}>
            Apply filter
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        {asksKey ? (
          <div>
            <Label htmlFor={`${ids}-key`}>Property name</Label>
            <Input
              id={`${ids}-key`}
              value={propertyKey}
              onChange={(e) => {
                setPropertyKey(e.target.value);
                setPicked([]);
              }}
              placeholder="plan, href, ..."
              autoComplete="off"
            />
            <div className="mt-2">
              <PropertyKeySuggestions
                websiteId={websiteId}
                period={period}
                filters={encodeFilters(filters)}
                picked={propertyKey.trim()}
                onPick={(key) => {
                  setPropertyKey(key);
                  setPicked([]);
                }}
              />
            </div>
          </div>
        ) : null}
        <div>
          <Label htmlFor={`${ids}-op`}>Operator</Label>
          <Select id={`${ids}-op`} value={operator} onChange={(e) => setOperator(e.target.value as FilterOperator)}>
            {OPERATORS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor={`${ids}-value`}>Value</Label>
          <Input
            id={`${ids}-value`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="Type to search, or enter a value"
            autoComplete="off"
          />
        </div>
        <div aria-live="polite">
          <div className="mb-2 flex items-center gap-2 text-xs uppercase tracking-wide text-gray-500">
            Suggestions {suggestions.isFetching ? <Spinner className="h-3 w-3" label="Loading suggestions" /> : null}
          </div>
          {!ready ? (
            <p className="text-sm text-gray-500">Name the property to see its values</p>
          ) : suggestions.error ? (
            <ErrorNote error={suggestions.error} onRetry={() => void suggestions.refetch()} />
          ) : suggestions.rows && suggestions.rows.length === 0 ? (
            <p className="text-sm text-gray-500">No values seen{typed.trim() ? ` containing "${typed.trim()}"` : ""}</p>
          ) : (
            <ul className="max-h-60 space-y-1 overflow-y-auto" data-testid="filter-suggestions">
              {suggestions.rows?.map((r) => {
                const value = filterValue(dimension.dimension, r.value);
                const on = picked.includes(value);
                return (
                  <li key={value}>
                    <button
                      type="button"
                      aria-pressed={on}
                      onClick={() => toggle(value)}
                      className={cx(
                        "flex w-full items-center justify-between gap-3 rounded-md px-3 py-2 text-left text-sm transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400",
                        on ? "bg-indigo-500/20 text-white" : "text-gray-200 hover:bg-gray-800",
                      )}
                    >
                      <span className="flex min-w-0 items-center gap-2">
                        <IconCheck className={cx("h-4 w-4 shrink-0", on ? "text-indigo-300" : "invisible")} />
                        <span className="truncate">{suggestionLabel(dimension.dimension, value)}</span>
                      </span>
                      <span className="shrink-0 tabular-nums text-gray-400">{formatNumber(r.count)}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </div>
    </Dialog>
  );
}
