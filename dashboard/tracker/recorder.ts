// The session recorder (/tracking/recorder.js), loaded by the core only when the site's config enables
// recordings. Records with @rrweb/record, every input masked (passwords always), the text inside
// contenteditable elements (rich-text editors, chat widgets) and `.tracker-mask` elements masked, and with
// the site's "mask all text" every text node; `.tracker-block` elements are left out. Events are uploaded
// gzipped to POST /api/replay soon after the page's first snapshot, every few seconds and on pagehide, numbered
// by a per-session seq kept in sessionStorage so that the pages of a visit make one recording; recording stops
// at the size cap. What a page leaving cannot send within the browser's keepalive budget is kept in
// sessionStorage and sent by the visit's next page.
import { record } from "@rrweb/record";
import { store } from "./core";
import { gzip, gzipStored } from "./gzip";
import type { Ctx } from "./types";

const FLUSH_EVERY_MS = 5000;
const CHUNK_LIMIT = 512 * 1024; // per upload (API.md)
// Raw JSON per upload. Small enough that even the uncompressed (stored) gzip sent at pagehide stays under
// CHUNK_LIMIT, so the last seconds of a visit, often the first full snapshot, are never dropped.
const PIECE_RAW = 480 * 1024;
// Unsent JSON past which a chunk is cut at once rather than at the next tick: what is sent while the page
// lives is compressed and needs no room at pagehide.
const SOON_RAW = 32 * 1024;
const SESSION_CAP = 20 * 1024 * 1024; // per session (API.md)
// Chromium lets a page have 64 KiB of keepalive bodies in flight (requests that outlive it); past that a
// keepalive fetch fails. The recorder keeps to this share and leaves the rest to hits and interactions.
const KEEPALIVE_BUDGET = 44 * 1024;
// Chunks a page could not be sure it sent (sessionStorage: [[seq, json, 1], ...], the 1 saying the chunk is
// counted toward SESSION_CAP already), for the visit's next page.
const CARRY = "tracker_rq";
// Text masked whatever the site says: what visitors type into editable elements, as inputs are. rrweb tests
// a text node's ancestors against it, at the first snapshot and for text added or changed later.
const EDITABLE = '[contenteditable]:not([contenteditable="false"])';

function run(c: Ctx) {
  const enc = new TextEncoder();
  let buf: string[] = []; // JSON of each event
  let bufSize = 0;
  let stopped = false;
  let soon: unknown;
  let stop: (() => void) | undefined;
  // Bytes of this page's keepalive uploads still in flight, and the uploads that would not survive the
  // page (sent without keepalive, not answered yet) by seq, with their JSON.
  let inflight = 0;
  const unsure = new Map<number, string>();
  const uploaded = () => Number(store("tracker_rb")) || 0;
  const halt = (why: string) => {
    stopped = true;
    buf = [];
    if (stop) stop();
    c.l("recording stopped:", why);
  };
  const nextSeq = () => {
    const seq = Number(store("tracker_seq")) || 0;
    store("tracker_seq", String(seq + 1));
    return seq;
  };
  // resent: a chunk sent once already (carried from the visit's previous page), counted then: the server keeps
  // one copy of a seq, so counting it again would stop a recording short of its cap.
  const upload = (seq: number, json: string, body: Uint8Array<ArrayBuffer>, last?: boolean, resent?: boolean) => {
    if (body.length > CHUNK_LIMIT) return c.l("replay chunk too large, dropped", body.length);
    const total = uploaded() + (resent ? 0 : body.length);
    if (total > SESSION_CAP) return halt("size cap");
    store("tracker_rb", String(total));
    const to = c.e + "/api/replay?tracking_key=" + encodeURIComponent(c.k) + "&session_id=" + encodeURIComponent(c.s) + "&seq=" + seq + (last ? "&final=1" : "");
    const keepalive = inflight + body.length <= KEEPALIVE_BUDGET;
    if (keepalive) inflight += body.length;
    else unsure.set(seq, json);
    fetch(to, { method: "POST", body, keepalive, credentials: "omit" })
      .then((r) => {
        unsure.delete(seq);
        if (r.status == 413) halt("server cap");
      }, c.l)
      .finally(() => {
        if (keepalive) inflight -= body.length;
      });
  };
  // Split the buffer into pieces of at most PIECE_RAW bytes of JSON (an oversized single event alone).
  const pieces = (): string[] => {
    const out: string[] = [];
    let cur: string[] = [];
    let size = 0;
    for (const e of buf) {
      if (cur.length && size + e.length > PIECE_RAW) {
        out.push("[" + cur.join(",") + "]");
        cur = [];
        size = 0;
      }
      cur.push(e);
      size += e.length + 1;
    }
    if (cur.length) out.push("[" + cur.join(",") + "]");
    buf = [];
    bufSize = 0;
    return out;
  };
  // Chunks cut but not yet uploaded (compressing), by seq with their JSON: pagehide sends them uncompressed at
  // once, since the page may be gone before the compression finishes.
  const pending = new Map<number, string>();
  // now: upload at once (page hidden or going away); last: the page's final chunk (pagehide), sent even when
  // empty so that the server knows the page's recording is complete.
  const flush = (now?: boolean, last?: boolean) => {
    soon = 0;
    if (stopped) return;
    if (!c.o()) return halt("no consent");
    for (const json of pieces()) {
      // seq is taken now, in recording order, whenever the compression finishes.
      const seq = nextSeq();
      pending.set(seq, json);
      if (!now) gzip(enc.encode(json)).then((body) => pending.delete(seq) && upload(seq, json, body), c.l);
    }
    if (!now) return;
    if (last && !pending.size) pending.set(nextSeq(), "[]");
    const seqs = [...pending.keys()];
    seqs.forEach((seq) => {
      const json = pending.get(seq)!;
      pending.delete(seq);
      upload(seq, json, gzipStored(enc.encode(json)), last && seq == seqs[seqs.length - 1]);
    });
    // What may not outlive the page goes to the visit's next page too (a chunk stored twice is ignored).
    if (last && unsure.size) {
      try {
        sessionStorage.setItem(CARRY, JSON.stringify([...carried(), ...[...unsure].map(([seq, json]) => [seq, json, 1])]));
      } catch (e) {
        c.l(e);
      }
    }
  };
  const carried = (): Array<[number, string, number?]> => {
    try {
      return JSON.parse(sessionStorage.getItem(CARRY) || "[]");
    } catch {
      return [];
    }
  };
  const soonFlush = () => {
    if (!soon) soon = setTimeout(flush);
  };
  // The previous page's leftovers first, so that the recording has no hole.
  const left = carried();
  if (left.length) {
    try {
      sessionStorage.removeItem(CARRY);
    } catch {}
    for (const [seq, json, counted] of left) gzip(enc.encode(json)).then((body) => upload(seq, json, body, false, counted == 1), c.l);
  }
  stop = record({
    emit(e) {
      if (stopped) return;
      const json = JSON.stringify(e);
      buf.push(json);
      bufSize += json.length;
      // A full snapshot (a page's first event of weight) goes out soon, while the page lives.
      if (bufSize > PIECE_RAW) flush();
      else if (e.type == 2 || bufSize > SOON_RAW) soonFlush();
    },
    maskAllInputs: true,
    maskInputOptions: { password: true },
    maskTextClass: "tracker-mask",
    // "*" matches every text node's parent element; style and script contents are not page text.
    maskTextSelector: c.c.maskAllText ? "*" : EDITABLE,
    blockClass: "tracker-block",
    inlineStylesheet: true,
    recordCanvas: false,
    collectFonts: false,
    sampling: { mousemove: 50, scroll: 150, input: "last" },
  });
  // A custom event (tracker.track) marks the recording too, so that the player's timeline can show it.
  const t = w.tracker;
  const track = t.track;
  t.track = (name: string, props?: object) => {
    try {
      record.addCustomEvent(String(name).slice(0, 100), props || {});
    } catch (e) {
      c.l(e);
    }
    return track(name, props);
  };
  setInterval(() => flush(), FLUSH_EVERY_MS);
  addEventListener("pagehide", () => flush(true, true));
  document.addEventListener("visibilitychange", () => document.visibilityState == "hidden" && flush(true));
}

const w = window as any;
const ctx: Ctx | undefined = w.tracker && w.tracker._;
if (ctx && !ctx.r) {
  ctx.r = 1;
  try {
    if ((Number(store("tracker_rb")) || 0) < SESSION_CAP) run(ctx);
  } catch (e) {
    ctx.l(e);
  }
}
