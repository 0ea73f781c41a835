//! Styled list picker on Radix Select (keyboard and typeahead, a dark popup instead of the OS one) for
//! options that need more than text. Plain choices keep the native `Select` in primitives.tsx, which
//! forms, tests and screen readers handle as an ordinary <select>.
import * as RadixSelect from "@radix-ui/react-select";
import type { ReactNode } from "react";
import { IconCheck } from "./icons";
import { cx } from "./primitives";

export interface SelectOption<T extends string> {
  value: T;
  label: ReactNode;
  disabled?: boolean;
}

export function SelectMenu<T extends string>({
  value,
  onChange,
  options,
  placeholder,
  className,
  "aria-label": ariaLabel,
  id,
}: {
  value: T | undefined;
  onChange: (v: T) => void;
  options: SelectOption<T>[];
  placeholder?: string;
  className?: string;
  "aria-label"?: string;
  id?: string;
}) {
  return (
    <RadixSelect.Root value={value} onValueChange={(v) => onChange(v as T)}>
      <RadixSelect.Trigger
        id={id}
        aria-label={ariaLabel}
        className={cx(
          "inline-flex h-10 w-full items-center justify-between gap-2 rounded-lg border border-gray-700 bg-gray-900 pl-3 pr-3 text-left text-sm text-gray-100 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 data-[placeholder]:text-gray-500",
          className,
        )}
      >
        <RadixSelect.Value placeholder={placeholder} />
        <RadixSelect.Icon>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 text-gray-400" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="m6 9 6 6 6-6" />
          </svg>
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content
          position="popper"
          sideOffset={4}
          className="z-50 max-h-[var(--radix-select-content-available-height)] min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-lg border border-gray-800 bg-gray-900 shadow-xl shadow-black/40"
        >
          <RadixSelect.Viewport className="p-1">
            {options.map((o) => (
              <RadixSelect.Item
                key={o.value}
                value={o.value}
                disabled={o.disabled}
                className="relative flex cursor-default select-none items-center rounded-md py-2 pl-8 pr-3 text-sm text-gray-200 outline-none data-[disabled]:opacity-50 data-[highlighted]:bg-gray-800 data-[highlighted]:text-white"
              >
                <RadixSelect.ItemIndicator className="absolute left-2 inline-flex items-center text-indigo-300">
                  <IconCheck className="h-4 w-4" />
                </RadixSelect.ItemIndicator>
                <RadixSelect.ItemText>{o.label}</RadixSelect.ItemText>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
