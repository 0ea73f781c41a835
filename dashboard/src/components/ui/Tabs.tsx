//! Accessible tab strip; the selected value lives wherever the caller keeps it (the URL on dashboards).
import type { ReactNode } from "react";
import { cx } from "./primitives";

export function Tabs<T extends string>({ value, onChange, items }: { value: T; onChange: (v: T) => void; items: { value: T; label: ReactNode }[] }) {
  return (
    <div role="tablist" className="inline-flex rounded-lg border border-gray-800 bg-gray-900 p-1">
      {items.map((item) => (
        <button
          key={item.value}
          type="button"
          role="tab"
          aria-selected={item.value === value}
          onClick={() => onChange(item.value)}
          className={cx(
            "rounded-md px-4 py-1.5 text-sm font-medium transition-colors",
            item.value === value ? "bg-gray-800 text-white shadow" : "text-gray-400 hover:text-gray-200",
          )}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
