//! Range slider on Radix Slider (arrow keys, Home/End, one thumb per value), styled dark. Give each thumb
//! a name with `thumbLabels` (the first one is used alone for a single value).
import * as RadixSlider from "@radix-ui/react-slider";
import type { ComponentProps } from "react";
import { cx } from "./primitives";

export function Slider({ className, thumbLabels = [], ...rest }: ComponentProps<typeof RadixSlider.Root> & { thumbLabels?: string[] }) {
  const values = rest.value ?? rest.defaultValue ?? [0];
  return (
    <RadixSlider.Root className={cx("relative flex h-5 w-full touch-none select-none items-center data-[disabled]:opacity-50", className)} {...rest}>
      <RadixSlider.Track className="relative h-1.5 grow overflow-hidden rounded-full bg-gray-800">
        <RadixSlider.Range className="absolute h-full bg-indigo-500" />
      </RadixSlider.Track>
      {values.map((_, i) => (
        <RadixSlider.Thumb
          // biome-ignore lint/suspicious/noArrayIndexKey: thumbs are positional, one per value
          key={i}
          aria-label={thumbLabels[i]}
          className="block h-4 w-4 rounded-full border-2 border-indigo-400 bg-gray-950 shadow focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400/50"
        />
      ))}
    </RadixSlider.Root>
  );
}
