//! rrweb-player over a recording's events, created in an effect and destroyed in its cleanup, sized to its
//! container (1024x576 at most, scaled down on small screens). Loaded lazily with the replay dialog.
//! The recorded page is rebuilt by rrweb's replayer in an iframe sandboxed with `allow-same-origin` only:
//! no `allow-scripts`, so nothing a visitor put into a recording can run in the dashboard.
import { forwardRef, useEffect, useImperativeHandle, useRef } from "react";
import Player from "rrweb-player";
import "rrweb-player/dist/style.css";
import "./player.css";
import type { RecordedEvent } from "../../api/replays";
import { PLAYER } from "../../lib/replays";

export interface ReplayPlayerHandle {
  /** Jumps to `offset` ms from the recording's start, paused. */
  goto(offset: number): void;
}

/** The Svelte component methods rrweb-player has (its typings name them through svelte, not installed). */
interface SvelteComponentLike {
  $set(props: Record<string, unknown>): void;
  $destroy(): void;
}

/** The rrweb-player controller's own height under the frame. */
const CONTROLLER_HEIGHT = 80;

function fit(width: number): { width: number; height: number } {
  const w = Math.max(240, Math.min(PLAYER.width, Math.floor(width)));
  return { width: w, height: Math.round((w * PLAYER.height) / PLAYER.width) };
}

export const ReplayPlayer = forwardRef<ReplayPlayerHandle, { events: RecordedEvent[]; tags: Record<string, string> }>(
  function ReplayPlayer({ events, tags }, ref) {
    const box = useRef<HTMLDivElement>(null);
    const player = useRef<Player | null>(null);

    useImperativeHandle(ref, () => ({ goto: (offset) => player.current?.goto(offset, false) }), []);

    useEffect(() => {
      const target = box.current;
      if (!target) return;
      const size = fit(target.clientWidth || PLAYER.width);
      const instance = new Player({
        target,
        props: {
          // The player mutates nothing it is given, but rrweb's types want its own event type.
          events: events as unknown as ConstructorParameters<typeof Player>[0]["props"]["events"],
          ...size,
          autoPlay: false,
          showController: true,
          speedOption: [...PLAYER.speeds],
          skipInactive: true,
          maxSpeed: PLAYER.maxSpeed,
          inactivePeriodThreshold: PLAYER.inactivePeriodThreshold,
          tags,
          // Never set UNSAFE_replayCanvas: it adds allow-scripts to the replay iframe's sandbox.
          UNSAFE_replayCanvas: false,
          mouseTail: false,
        },
      });
      const component = instance as unknown as SvelteComponentLike;
      // A future rrweb default (or option) that let recorded pages run scripts must fail loudly here.
      if (instance.getReplayer().iframe.sandbox.contains("allow-scripts")) {
        component.$destroy();
        throw new Error("The replay frame would run the recorded page's scripts");
      }
      // Replaying a visitor's focus calls focus() inside the frame, which takes the keyboard away from the
      // dialog (Escape stopped closing it). The frame is only watched, never used: focus comes straight back.
      const frame = instance.getReplayer().iframe;
      const keepFocus = () =>
        setTimeout(() => {
          if (document.activeElement === frame) target.focus({ preventScroll: true });
        }, 0);
      window.addEventListener("blur", keepFocus);
      player.current = instance;
      let last = size.width;
      const observer = new ResizeObserver(() => {
        const next = fit(target.clientWidth);
        if (Math.abs(next.width - last) < 8) return;
        last = next.width;
        component.$set(next);
        instance.triggerResize();
      });
      observer.observe(target);
      return () => {
        window.removeEventListener("blur", keepFocus);
        observer.disconnect();
        player.current = null;
        const replayer = instance.getReplayer();
        component.$destroy();
        replayer.destroy();
      };
    }, [events, tags]);

    return <div ref={box} tabIndex={-1} className="replay-player w-full outline-none" style={{ minHeight: CONTROLLER_HEIGHT }} data-testid="replay-player" />;
  },
);
