//! The replay player for a site whose owner chose to load the recorded page's remote images, fonts and
//! stylesheets: the daemon's player page (/replay-player, src/replayPlayer.ts) in a frame, whose own policy lets
//! them load while scripts still come only from the daemon. The dashboard's policy stays as strict as ever. The
//! page is given the recording by postMessage; it never sees a token.
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from "react";
import type { RecordedEvent } from "../../api/replays";
import { CONTROLLER_HEIGHT, PLAYER, fitPlayer } from "../../lib/replays";
import { PLAYER_PAGE, messageFrom } from "./playerMessages";
import type { FromPlayer, ToPlayer } from "./playerMessages";
import type { ReplayPlayerHandle } from "./ReplayPlayer";

/** Posts to the player page, and only to a page of the dashboard's own origin. */
function post(frame: HTMLIFrameElement | null, message: ToPlayer) {
  frame?.contentWindow?.postMessage(message, window.location.origin);
}

export const ReplayPlayerFrame = forwardRef<ReplayPlayerHandle, { events: RecordedEvent[]; tags: Record<string, string> }>(
  function ReplayPlayerFrame({ events, tags }, ref) {
    const box = useRef<HTMLDivElement>(null);
    const frame = useRef<HTMLIFrameElement>(null);
    const [width, setWidth] = useState<number>(PLAYER.width);

    useImperativeHandle(ref, () => ({ goto: (offset) => post(frame.current, { type: "goto", offset }) }), []);

    useEffect(() => {
      const target = box.current;
      if (!target) return;
      const observer = new ResizeObserver(() => setWidth(target.clientWidth));
      observer.observe(target);
      return () => observer.disconnect();
    }, []);

    useEffect(() => {
      const onMessage = (event: MessageEvent) => {
        const message = messageFrom<FromPlayer>(event, frame.current?.contentWindow);
        if (message?.type === "ready") post(frame.current, { type: "load", events, tags });
        // The dialog closes on Escape (Radix listens on the document); a key pressed in the frame never got there.
        else if (message?.type === "escape") frame.current?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
      };
      window.addEventListener("message", onMessage);
      return () => window.removeEventListener("message", onMessage);
    }, [events, tags]);

    return (
      <div ref={box} className="w-full" data-testid="replay-player" data-remote-assets="on">
        <iframe
          ref={frame}
          src={PLAYER_PAGE}
          title="Session replay player"
          className="block w-full border-0"
          style={{ height: fitPlayer(width).height + CONTROLLER_HEIGHT }}
          data-testid="replay-player-frame"
        />
      </div>
    );
  },
);
