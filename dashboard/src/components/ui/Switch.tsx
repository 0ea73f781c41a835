//! On/off switch on Radix Switch (role="switch", Space toggles), styled dark. Label it with aria-label or
//! a <Label htmlFor> pointing at its id.
import * as RadixSwitch from "@radix-ui/react-switch";
import type { ComponentProps } from "react";
import { cx } from "./primitives";

export function Switch({ className, ...rest }: ComponentProps<typeof RadixSwitch.Root>) {
  return (
    <RadixSwitch.Root
      className={cx(
        "relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border border-gray-700 bg-gray-800 transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 focus-visible:ring-offset-2 focus-visible:ring-offset-gray-950 disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:border-indigo-500 data-[state=checked]:bg-indigo-500",
        className,
      )}
      {...rest}
    >
      <RadixSwitch.Thumb className="block h-4 w-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.05rem]" />
    </RadixSwitch.Root>
  );
}
