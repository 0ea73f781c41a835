//! The comparison menu beside the range picker: off, the previous period, or a year earlier.
import * as RadixMenu from "@radix-ui/react-dropdown-menu";
import type { ScreenCompare } from "../../hooks/compare";
import { COMPARES } from "../../lib/compare";
import { IconCheck, IconChart } from "../ui/icons";
import { Button, cx } from "../ui/primitives";

const ITEM = "flex w-full cursor-default items-center gap-2 px-3 py-2 text-left text-sm text-gray-200 outline-none data-[highlighted]:bg-gray-800";

export function ComparePicker({ screen }: { screen: ScreenCompare }) {
  const { compare, set } = screen;
  const label = COMPARES.find((c) => c.value === compare)?.label;
  return (
    <RadixMenu.Root modal={false}>
      <RadixMenu.Trigger asChild>
        <Button variant="outline" size="sm" data-testid="compare-picker" aria-label={label ? `Compare: ${label}` : "Compare"}>
          <IconChart />
          {label ? `vs ${label.toLowerCase()}` : "Compare"}
        </Button>
      </RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content align="end" sideOffset={4} className="z-50 w-52 rounded-lg border border-gray-800 bg-gray-900 py-1 shadow-xl shadow-black/40">
          <RadixMenu.Item onSelect={() => set(null)} className={ITEM}>
            <IconCheck className={cx("h-4 w-4 shrink-0", compare === null ? "text-indigo-300" : "invisible")} />
            No comparison
          </RadixMenu.Item>
          {COMPARES.map((c) => (
            <RadixMenu.Item key={c.value} onSelect={() => set(c.value)} className={ITEM}>
              <IconCheck className={cx("h-4 w-4 shrink-0", compare === c.value ? "text-indigo-300" : "invisible")} />
              {c.label}
            </RadixMenu.Item>
          ))}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}
