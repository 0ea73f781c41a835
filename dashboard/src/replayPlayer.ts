//! The replay player page (/replay-player, dashboard/public/replay-player.html): the dashboard frames it to play
//! the recordings of a site whose owner chose to load the recorded page's remote images, fonts and stylesheets.
//! The daemon serves it with a policy of its own that lets those load from any http(s) host while scripts still
//! come only from the daemon and nothing connects anywhere. It fetches nothing itself: the dashboard posts it the
//! recording (it holds no token) and where to jump.
import "rrweb-player/dist/style.css";
import "./components/replays/player.css";
import { mountPlayer } from "./components/replays/mountPlayer";
import type { MountedPlayer } from "./components/replays/mountPlayer";
import { messageFrom } from "./components/replays/playerMessages";
import type { FromPlayer, ToPlayer } from "./components/replays/playerMessages";

const root = document.getElementById("player") as HTMLElement;
let mounted: MountedPlayer | null = null;
const tell = (message: FromPlayer) => window.parent.postMessage(message, window.location.origin);

window.addEventListener("message", (event) => {
  const message = messageFrom<ToPlayer>(event, window.parent);
  if (message?.type === "load" && !mounted && Array.isArray(message.events)) {
    mounted = mountPlayer(root, message.events, message.tags ?? {}, root.clientWidth);
  } else if (message?.type === "goto" && typeof message.offset === "number") {
    mounted?.goto(message.offset);
  }
});
new ResizeObserver(() => mounted?.resize(root.clientWidth)).observe(root);
// Replaying a visitor's focus moves the keyboard into the replay frame, where keys reach nothing: it comes
// straight back. Escape goes to the dashboard, which closes the dialog around this page.
window.addEventListener("blur", () =>
  setTimeout(() => {
    if (mounted && document.activeElement === mounted.frame) root.focus({ preventScroll: true });
  }, 0),
);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") tell({ type: "escape" });
});
tell({ type: "ready" });
