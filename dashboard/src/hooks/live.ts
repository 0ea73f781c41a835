//! The live feed: an EventSource on /api/dashboard/live, opened with a single-use stream ticket (the access
//! token never goes into a URL). Connected on open (Real-time), Disconnected on error; on error a new stream
//! with a new ticket after a back-off. The server ends a stream when its token expires or its sign-in is
//! revoked, which is such an error: the ticket request then answers 401 invalid_token and the API client
//! refreshes the token once. The stream is never what starts a refresh: it errors too when the page unloads,
//! and a refresh then would rotate the token with no page left to store the new one.
import { useEffect, useState } from "react";
import { api } from "../api";
import type { ActiveSession } from "../api/types";
import { parseLiveMessage } from "../lib/live";

export type LiveStatus = "connecting" | "connected" | "disconnected";

export function useLiveSessions(websiteId: number | undefined) {
  const [sessions, setSessions] = useState<ActiveSession[]>([]);
  const [status, setStatus] = useState<LiveStatus>("connecting");

  useEffect(() => {
    setSessions([]);
    if (websiteId === undefined) {
      setStatus("disconnected");
      return;
    }
    let source: EventSource | null = null;
    let cancelled = false;
    let retryTimer: number | undefined;
    let failures = 0;

    const open = async () => {
      if (cancelled) return;
      setStatus("connecting");
      let ticket: string;
      try {
        ticket = (await api.post<{ ticket: string }>("/api/dashboard/live/ticket")).ticket;
      } catch {
        if (!cancelled) setStatus("disconnected");
        return;
      }
      if (cancelled) return;
      const es = new EventSource(`/api/dashboard/live?website_id=${websiteId}&ticket=${encodeURIComponent(ticket)}`);
      source = es;
      es.onopen = () => {
        failures = 0;
        setStatus("connected");
      };
      es.onmessage = (event: MessageEvent<string>) => {
        const list = parseLiveMessage(event.data);
        if (list) setSessions(list);
      };
      es.onerror = () => {
        es.close();
        if (cancelled) return;
        setStatus("disconnected");
        failures += 1;
        // Back off when the stream keeps failing even with fresh tokens.
        const delay = Math.min(30_000, 500 * 2 ** Math.min(failures - 1, 6));
        retryTimer = window.setTimeout(() => void open(), delay);
      };
    };
    void open();
    return () => {
      cancelled = true;
      window.clearTimeout(retryTimer);
      source?.close();
    };
  }, [websiteId]);

  return { sessions, status };
}

/** Re-renders every `ms` so relative times stay current. */
export function useNow(ms = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(t);
  }, [ms]);
  return now;
}
