//! Tabs on Radix Tabs (arrow keys move between tabs), styled dark. The selected value lives wherever the
//! caller keeps it (the URL on dashboards). `Tabs` is the strip alone; `TabsRoot` + `TabsList` +
//! `TabsTrigger` + `TabsContent` wire panels to their tabs and nest (tabs inside a tab's panel).
import * as RadixTabs from "@radix-ui/react-tabs";
import type { ComponentProps, ReactNode } from "react";
import { cx } from "./primitives";

export function TabsRoot<T extends string>({ value, onChange, className, children }: { value: T; onChange: (v: T) => void; className?: string; children: ReactNode }) {
  return (
    <RadixTabs.Root value={value} onValueChange={(v) => onChange(v as T)} className={className}>
      {children}
    </RadixTabs.Root>
  );
}

export function TabsList({ className, ...rest }: ComponentProps<typeof RadixTabs.List>) {
  // Never wider than its column: with a wider system font (DejaVu Sans on Linux) four tabs overflowed a 390 px
  // screen, so triggers tighten below the sm breakpoint and the strip scrolls itself rather than the page.
  return <RadixTabs.List className={cx("inline-flex max-w-full overflow-x-auto rounded-lg border border-gray-800 bg-gray-900 p-1", className)} {...rest} />;
}

export function TabsTrigger({ className, ...rest }: ComponentProps<typeof RadixTabs.Trigger>) {
  return (
    <RadixTabs.Trigger
      className={cx(
        "shrink-0 whitespace-nowrap rounded-md px-3 py-1.5 text-sm sm:px-4 font-medium text-gray-400 transition-colors hover:text-gray-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 data-[state=active]:bg-gray-800 data-[state=active]:text-white data-[state=active]:shadow",
        className,
      )}
      {...rest}
    />
  );
}

export function TabsContent({ className, ...rest }: ComponentProps<typeof RadixTabs.Content>) {
  return <RadixTabs.Content className={cx("outline-none", className)} {...rest} />;
}

/** A tab strip without panels: the caller renders what the value selects. */
export function Tabs<T extends string>({ value, onChange, items }: { value: T; onChange: (v: T) => void; items: { value: T; label: ReactNode }[] }) {
  return (
    <TabsRoot value={value} onChange={onChange}>
      <TabsList>
        {items.map((item) => (
          <TabsTrigger key={item.value} value={item.value}>
            {item.label}
          </TabsTrigger>
        ))}
      </TabsList>
    </TabsRoot>
  );
}
