// Placeholder page-view beacon; replaced by the full tracking script.
(() => {
  const s = document.currentScript as HTMLScriptElement | null;
  const key = (window as any).__TRACKER_KEY || s?.dataset.trackingKey;
  const endpoint = new URL("/api/track", s?.src || location.href).href;
  const sid = sessionStorage.getItem("tracker_sid") || Math.random().toString(36).slice(2) + Date.now().toString(36);
  sessionStorage.setItem("tracker_sid", sid);
  const send = (event: string, name?: string, props?: Record<string, unknown>) =>
    fetch(endpoint, {
      method: "POST",
      keepalive: true,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ tracking_key: key, session_id: sid, url: location.href, referrer: document.referrer, event, event_name: name, event_properties: props, timestamp: new Date().toISOString() }),
    });
  (window as any).tracker = { track: (n: string, p?: Record<string, unknown>) => send("custom", n, p), pageview: () => send("pageview") };
  send("pageview");
})();
