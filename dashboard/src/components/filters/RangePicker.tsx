//! The range picker in the filter bar's slot: a menu of presets and "Custom range…", which opens a small dialog
//! with two native date fields (the browser's calendar). Its label says the period the screen shows.
import * as RadixMenu from "@radix-ui/react-dropdown-menu";
import { useId, useState } from "react";
import type { ScreenPeriod } from "../../hooks/period";
import { PRESETS, customRangeError, periodLabel } from "../../lib/period";
import { Dialog } from "../ui/Dialog";
import { IconCheck, IconClock } from "../ui/icons";
import { Button, FieldError, Input, Label, cx } from "../ui/primitives";

const ITEM = "flex w-full cursor-default items-center gap-2 px-3 py-2 text-left text-sm text-gray-200 outline-none data-[highlighted]:bg-gray-800";

export function RangePicker({ screen }: { screen: ScreenPeriod }) {
  const [custom, setCustom] = useState(false);
  const { period, set } = screen;
  const current = "range" in period ? period.range : null;
  return (
    <>
      <RadixMenu.Root modal={false}>
        <RadixMenu.Trigger asChild>
          <Button variant="outline" size="sm" data-testid="range-picker" aria-label={`Period: ${periodLabel(period)}`}>
            <IconClock />
            {periodLabel(period)}
          </Button>
        </RadixMenu.Trigger>
        <RadixMenu.Portal>
          <RadixMenu.Content
            align="end"
            sideOffset={4}
            className="z-50 max-h-[var(--radix-dropdown-menu-content-available-height)] w-52 overflow-y-auto rounded-lg border border-gray-800 bg-gray-900 py-1 shadow-xl shadow-black/40"
          >
            {PRESETS.map((p) => (
              <RadixMenu.Item key={p.range} onSelect={() => set({ range: p.range })} className={ITEM}>
                <IconCheck className={cx("h-4 w-4 shrink-0", current === p.range ? "text-indigo-300" : "invisible")} />
                {p.label}
              </RadixMenu.Item>
            ))}
            <RadixMenu.Separator className="my-1 h-px bg-gray-800" />
            <RadixMenu.Item onSelect={() => setCustom(true)} className={ITEM}>
              <IconCheck className={cx("h-4 w-4 shrink-0", current === null ? "text-indigo-300" : "invisible")} />
              Custom range…
            </RadixMenu.Item>
          </RadixMenu.Content>
        </RadixMenu.Portal>
      </RadixMenu.Root>
      {custom ? (
        <CustomRangeDialog
          initial={"from" in period ? period : { from: "", to: "" }}
          onApply={(from, to) => {
            set({ from, to });
            setCustom(false);
          }}
          onClose={() => setCustom(false)}
        />
      ) : null}
    </>
  );
}

function CustomRangeDialog({
  initial,
  onApply,
  onClose,
}: { initial: { from: string; to: string }; onApply: (from: string, to: string) => void; onClose: () => void }) {
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  function apply(e: React.FormEvent) {
    e.preventDefault();
    const fault = customRangeError(from, to);
    if (fault) setError(fault);
    else onApply(from, to);
  }
  return (
    <Dialog
      open
      onClose={onClose}
      title="Custom range"
      description="Both days are included (UTC)."
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={`${id}-form`}>
            Apply
          </Button>
        </>
      }
    >
      <form id={`${id}-form`} onSubmit={apply} className="grid gap-4 sm:grid-cols-2" noValidate>
        <div>
          <Label htmlFor={`${id}-from`}>From</Label>
          <Input id={`${id}-from`} type="date" value={from} max={to || undefined} onChange={(e) => { setFrom(e.target.value); setError(null); }} />
        </div>
        <div>
          <Label htmlFor={`${id}-to`}>To</Label>
          <Input id={`${id}-to`} type="date" value={to} min={from || undefined} onChange={(e) => { setTo(e.target.value); setError(null); }} />
        </div>
        <div className="sm:col-span-2">
          <FieldError>{error}</FieldError>
        </div>
      </form>
    </Dialog>
  );
}
