//! Dropdown menu on Radix DropdownMenu (arrow keys, typeahead, Escape and outside click close), styled dark.
import * as RadixMenu from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";
import { cx } from "./primitives";

export interface MenuItem {
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  onSelect: () => void;
}

export function Menu({ trigger, items, label }: { trigger: ReactNode; items: MenuItem[]; label: string }) {
  return (
    <RadixMenu.Root>
      <RadixMenu.Trigger aria-label={label} className="rounded-md p-1.5 text-gray-400 hover:bg-gray-800 hover:text-white data-[state=open]:bg-gray-800 data-[state=open]:text-white">
        {trigger}
      </RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 w-40 overflow-hidden rounded-lg border border-gray-800 bg-gray-900 py-1 shadow-xl shadow-black/40"
        >
          {items.map((item) => (
            <RadixMenu.Item
              key={item.label}
              onSelect={item.onSelect}
              className={cx(
                "flex w-full cursor-default items-center gap-2 px-3 py-2 text-left text-sm outline-none [&_svg]:h-4 [&_svg]:w-4",
                item.danger ? "text-red-400 data-[highlighted]:bg-red-500/10" : "text-gray-200 data-[highlighted]:bg-gray-800",
              )}
            >
              {item.icon}
              {item.label}
            </RadixMenu.Item>
          ))}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}
