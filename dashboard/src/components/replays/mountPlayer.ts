//! rrweb-player over a recording's events, mounted into an element and sized to a width (1024x576 at most):
//! shared by the dashboard's own player (ReplayPlayer.tsx) and the replay player page (src/replayPlayer.ts).
//! The recorded page is rebuilt by rrweb's replayer in an iframe sandboxed with `allow-same-origin` only:
//! no `allow-scripts`, so nothing a visitor put into a recording can run.
import Player from "rrweb-player";
import type { RecordedEvent } from "../../api/replays";
import { PLAYER, fitPlayer } from "../../lib/replays";

/** The Svelte component methods rrweb-player has (its typings name them through svelte, not installed). */
interface SvelteComponentLike {
  $set(props: Record<string, unknown>): void;
  $destroy(): void;
}

export interface MountedPlayer {
  /** The iframe the recorded page is rebuilt in. */
  frame: HTMLIFrameElement;
  /** Jumps to `offset` ms from the recording's start, paused. */
  goto(offset: number): void;
  /** Fits the player to a container `width` px wide (small changes are ignored). */
  resize(width: number): void;
  destroy(): void;
}

export function mountPlayer(target: HTMLElement, events: RecordedEvent[], tags: Record<string, string>, width: number): MountedPlayer {
  let size = fitPlayer(width || PLAYER.width);
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
  const frame = instance.getReplayer().iframe;
  // A future rrweb default (or option) that let recorded pages run scripts must fail loudly here.
  if (frame.sandbox.contains("allow-scripts")) {
    component.$destroy();
    throw new Error("The replay frame would run the recorded page's scripts");
  }
  return {
    frame,
    goto: (offset) => instance.goto(offset, false),
    resize(next) {
      const fitted = fitPlayer(next);
      if (Math.abs(fitted.width - size.width) < 8) return;
      size = fitted;
      component.$set(fitted);
      instance.triggerResize();
    },
    destroy() {
      const replayer = instance.getReplayer();
      component.$destroy();
      replayer.destroy();
    },
  };
}
