//! The dashboard's own replay player (mountPlayer.ts), created in an effect and destroyed in its cleanup, sized
//! to its container. Loaded lazily with the replay dialog. It runs under the dashboard's policy, which loads
//! nothing from other hosts: the recorded page's remote images, fonts and stylesheets are left out. A site whose
//! owner chose to load them plays in ReplayPlayerFrame.tsx instead.
import { forwardRef, useEffect, useImperativeHandle, useRef } from "react";
import "rrweb-player/dist/style.css";
import "./player.css";
import type { RecordedEvent } from "../../api/replays";
import { CONTROLLER_HEIGHT } from "../../lib/replays";
import { mountPlayer } from "./mountPlayer";
import type { MountedPlayer } from "./mountPlayer";

export interface ReplayPlayerHandle {
  /** Jumps to `offset` ms from the recording's start, paused. */
  goto(offset: number): void;
}

export const ReplayPlayer = forwardRef<ReplayPlayerHandle, { events: RecordedEvent[]; tags: Record<string, string> }>(
  function ReplayPlayer({ events, tags }, ref) {
    const box = useRef<HTMLDivElement>(null);
    const player = useRef<MountedPlayer | null>(null);

    useImperativeHandle(ref, () => ({ goto: (offset) => player.current?.goto(offset) }), []);

    useEffect(() => {
      const target = box.current;
      if (!target) return;
      const mounted = mountPlayer(target, events, tags, target.clientWidth);
      // Replaying a visitor's focus calls focus() inside the frame, which takes the keyboard away from the
      // dialog (Escape stopped closing it). The frame is only watched, never used: focus comes straight back.
      const keepFocus = () =>
        setTimeout(() => {
          if (document.activeElement === mounted.frame) target.focus({ preventScroll: true });
        }, 0);
      window.addEventListener("blur", keepFocus);
      player.current = mounted;
      const observer = new ResizeObserver(() => mounted.resize(target.clientWidth));
      observer.observe(target);
      return () => {
        window.removeEventListener("blur", keepFocus);
        observer.disconnect();
        player.current = null;
        mounted.destroy();
      };
    }, [events, tags]);

    return (
      <div
        ref={box}
        tabIndex={-1}
        className="replay-player w-full outline-none"
        style={{ minHeight: CONTROLLER_HEIGHT }}
        data-testid="replay-player"
        data-remote-assets="off"
      />
    );
  },
);
