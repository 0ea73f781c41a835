#!/usr/bin/env node
// A stand-in for `tracker serve` implementing the API contract (daemon/API.md) in memory, for working on
// the dashboard without the Rust build. Same command line and the same "Dashboard: URL" line as the daemon,
// so the browser tests run against it with TRACKER_BIN=test/dev/mock-daemon.mjs. Not shipped.
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";

const args = process.argv.slice(2);
const addr = args[args.indexOf("--addr") + 1] ?? "127.0.0.1:0";
const [host, port] = addr.split(":");
const dist = new URL("../../dist/", import.meta.url).pathname;
const ROUTES = new Set(["/", "/dashboard", "/advanced-analytics", "/websites", "/live", "/visitor-stream", "/funnels", "/customer-journeys", "/session-replays", "/events", "/organizations", "/export", "/settings", "/basic-dashboard", "/auth", "/verify-email"]);
const TYPES = { ".html": "text/html", ".js": "application/javascript", ".css": "text/css", ".json": "application/json" };

const users = []; // {id, email, password}
const tokens = new Map(); // access -> userId
const refreshTokens = new Map();
const sites = []; // website + userId
const events = []; // {id, websiteId, type, name, url, sessionId, referrer, value, ts}
const subscribers = new Set(); // {websiteId, res}
let nextId = 1;

const tok = () => randomBytes(16).toString("hex");
const send = (res, status, body, headers = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(body === undefined ? "" : JSON.stringify(body));
};
const err = (res, status, message) => send(res, status, { error: { message } });
const readBody = (req) => new Promise((ok) => { let b = ""; req.on("data", (c) => (b += c)); req.on("end", () => { try { ok(b ? JSON.parse(b) : {}); } catch { ok(null); } }); });
const publicUser = (u) => ({ id: u.id, email: u.email, createdAt: u.createdAt });
function issue(u) {
  const accessToken = tok(), refreshToken = tok();
  tokens.set(accessToken, u.id); refreshTokens.set(refreshToken, u.id);
  return { accessToken, refreshToken, user: publicUser(u) };
}
function authUser(req, url) {
  const h = req.headers.authorization ?? "";
  const t = h.startsWith("Bearer ") ? h.slice(7) : url.searchParams.get("token");
  return users.find((u) => u.id === tokens.get(t));
}
const siteOf = (u, id) => sites.find((s) => s.id === Number(id) && s.userId === u.id);
const base = (req) => `http://${req.headers.host}`;
const view = (s, req) => ({ id: s.id, name: s.name, domain: s.domain, trackingKey: s.trackingKey, trackingLevel: s.trackingLevel, createdAt: s.createdAt, scriptUrl: `${base(req)}/tracking/${s.trackingKey}.js` });
const DAY = 86_400_000;
const inRange = (e, from, to) => e.ts >= from && e.ts < to;
function activeSessions(websiteId) {
  const cutoff = Date.now() - 5 * 60_000;
  const latest = new Map();
  for (const e of events) if (e.websiteId === websiteId && e.ts >= cutoff) latest.set(e.sessionId, e);
  return [...latest.values()].sort((a, b) => b.ts - a.ts).map((e) => ({ id: e.sessionId, sessionId: e.sessionId, ipAddress: "127.0.0.0", lastSeen: new Date(e.ts).toISOString(), currentPage: e.url, country: "", device: "Desktop", browser: "Chrome" }));
}
function publish(websiteId) {
  for (const s of subscribers) if (s.websiteId === websiteId) s.res.write(`data: ${JSON.stringify({ type: "active_sessions", data: activeSessions(websiteId) })}\n\n`);
}
function stats(websiteId, from, to) {
  const list = events.filter((e) => e.websiteId === websiteId && inRange(e, from, to));
  const pv = list.filter((e) => e.type === "pageview");
  return { visitors: new Set(list.map((e) => e.sessionId)).size, pageViews: pv.length, conversions: list.filter((e) => e.type === "conversion").length, list, pv };
}
const TRACKER_JS = (key, origin) => `(function(){var k=${JSON.stringify(key)},o=${JSON.stringify(origin)};var s=sessionStorage.getItem("tk_s")||Math.random().toString(36).slice(2)+Date.now().toString(36);sessionStorage.setItem("tk_s",s);function send(ev,name,props){fetch(o+"/api/track",{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify({tracking_key:k,session_id:s,url:location.href,referrer:document.referrer,event:ev,event_name:name,event_properties:props}),keepalive:true})}window.tracker={track:function(n,p){send(p&&p.value!=null?"conversion":"custom",n,p)},pageview:function(){send("pageview")},identify:function(){},consent:function(){}};send("pageview")})();`;

const server = createServer(async (req, res) => {
  const url = new URL(req.url, "http://x");
  const p = url.pathname;
  const m = req.method;
  if (p === "/api/track") {
    const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "Content-Type", "Access-Control-Allow-Methods": "POST, OPTIONS" };
    if (m === "OPTIONS") return send(res, 204, undefined, cors);
    const b = await readBody(req);
    const s = sites.find((x) => x.trackingKey === b?.tracking_key);
    if (!s) return send(res, 404, { error: { message: "unknown tracking key" } }, cors);
    events.push({ id: nextId++, websiteId: s.id, type: b.event ?? "pageview", name: b.event_name ?? "", url: b.url, referrer: b.referrer ?? "", sessionId: b.session_id, value: b.event_properties?.value ?? null, ts: Date.now() });
    publish(s.id);
    return send(res, 202, { ok: true }, cors);
  }
  const tm = /^\/tracking\/([\w-]+)\.js$/.exec(p);
  if (tm) {
    if (!sites.some((s) => s.trackingKey === tm[1])) return err(res, 404, "unknown tracking key");
    res.writeHead(200, { "Content-Type": "application/javascript" });
    return res.end(TRACKER_JS(tm[1], base(req)));
  }
  if (p.startsWith("/api/")) {
    if (m === "POST" && (p === "/api/register" || p === "/api/login")) {
      const b = await readBody(req);
      if (p === "/api/register") {
        if (!b?.email?.includes("@")) return err(res, 400, "invalid email");
        if ((b.password ?? "").length < 6) return err(res, 400, "password must be at least 6 characters");
        if (users.some((u) => u.email === b.email)) return err(res, 409, "email already registered");
        const u = { id: nextId++, email: b.email, password: b.password, createdAt: new Date().toISOString() };
        users.push(u);
        return send(res, 201, issue(u));
      }
      const u = users.find((x) => x.email === b?.email && x.password === b?.password);
      return u ? send(res, 200, issue(u)) : err(res, 401, "invalid email or password");
    }
    if (m === "POST" && p === "/api/refresh") {
      const b = await readBody(req);
      const id = refreshTokens.get(b?.refreshToken);
      if (!id) return err(res, 401, "invalid refresh token");
      const accessToken = tok(); tokens.set(accessToken, id);
      return send(res, 200, { accessToken });
    }
    const u = authUser(req, url);
    if (!u) return err(res, 401, "unauthorized");
    if (p === "/api/user") return send(res, 200, publicUser(u));
    if (p === "/api/websites" && m === "GET") return send(res, 200, sites.filter((s) => s.userId === u.id).map((s) => view(s, req)));
    if (p === "/api/websites" && m === "POST") {
      const b = await readBody(req);
      if (!b?.name || !b?.domain) return err(res, 400, "name and domain are required");
      const s = { id: nextId++, userId: u.id, name: b.name, domain: b.domain, trackingLevel: b.trackingLevel ?? "light", trackingKey: `tk_${tok().slice(0, 16)}`, createdAt: new Date().toISOString() };
      sites.push(s);
      return send(res, 201, view(s, req));
    }
    const wm = /^\/api\/websites\/(\d+)(?:\/([\w-]+))?$/.exec(p);
    if (wm) {
      const s = siteOf(u, wm[1]);
      if (!s) return err(res, 404, "website not found");
      const now = Date.now(), from30 = now - 30 * DAY;
      const st = stats(s.id, from30, now + 1);
      switch (wm[2]) {
        case undefined:
          if (m === "DELETE") { sites.splice(sites.indexOf(s), 1); return send(res, 204); }
          if (m === "PUT") { const b = await readBody(req); Object.assign(s, { name: b.name ?? s.name, domain: b.domain ?? s.domain }); }
          return send(res, 200, view(s, req));
        case "referrers": {
          const c = new Map(); for (const e of st.pv) c.set(e.referrer, (c.get(e.referrer) ?? 0) + 1);
          return send(res, 200, [...c].map(([referrer, count]) => ({ referrer, count })).sort((a, b) => b.count - a.count));
        }
        case "countries": return send(res, 200, st.pv.length ? [{ country: "", count: st.pv.length }] : []);
        case "traffic-sources": {
          const c = new Map(); for (const e of st.pv) { const k = e.referrer ? new URL(e.referrer).host : "Direct"; c.set(k, (c.get(k) ?? 0) + 1); }
          return send(res, 200, [...c].map(([source, visits]) => ({ source, visits, percentage: Math.round((visits / st.pv.length) * 1000) / 10 })));
        }
        case "conversions": {
          const conv = st.list.filter((e) => e.type === "conversion").reverse();
          return send(res, 200, { conversions: conv.map((e) => ({ id: e.id, goalName: e.name, value: e.value, timestamp: new Date(e.ts).toISOString() })), conversionRate: st.visitors ? Math.round((new Set(conv.map((e) => e.sessionId)).size / st.visitors) * 1000) / 10 : 0 });
        }
        case "identified-visitors": return send(res, 200, []);
        case "export": {
          res.writeHead(200, { "Content-Type": "text/csv", "Content-Disposition": `attachment; filename="analytics-${s.id}.csv"` });
          return res.end("timestamp,type,name,url\n" + st.list.map((e) => `${new Date(e.ts).toISOString()},${e.type},${e.name},${e.url}`).join("\n"));
        }
      }
      return err(res, 404, "not found");
    }
    if (p.startsWith("/api/dashboard/")) {
      if (p === "/api/dashboard/sites") {
        const metric = url.searchParams.get("metric") === "visitors" ? "visitors" : "pageViews";
        const today = new Date(); today.setUTCHours(0, 0, 0, 0); const t0 = today.getTime(), end = Date.now() + 1;
        const f = (id, from, to) => stats(id, from, to)[metric];
        return send(res, 200, sites.filter((s) => s.userId === u.id).map((s) => ({ websiteId: s.id, today: f(s.id, t0, end), yesterday: f(s.id, t0 - DAY, t0), last7Days: f(s.id, t0 - 6 * DAY, end), last30Days: f(s.id, t0 - 29 * DAY, end) })));
      }
      const s = siteOf(u, url.searchParams.get("website_id"));
      if (!s) return err(res, 404, "website not found");
      if (p === "/api/dashboard/live") {
        res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
        const sub = { websiteId: s.id, res };
        subscribers.add(sub);
        res.write(`data: ${JSON.stringify({ type: "active_sessions", data: activeSessions(s.id) })}\n\n`);
        req.on("close", () => subscribers.delete(sub));
        return;
      }
      const now = Date.now();
      if (p === "/api/dashboard/overview") {
        const days = Number((url.searchParams.get("range") ?? "30d").replace("d", "")) || 30;
        const cur = stats(s.id, now - days * DAY, now + 1), prev = stats(s.id, now - 2 * days * DAY, now - days * DAY);
        const pages = new Map(); for (const e of cur.pv) pages.set(e.url, (pages.get(e.url) ?? 0) + 1);
        return send(res, 200, {
          metrics: { totalVisitors: cur.visitors, activeSessions: activeSessions(s.id).length, pageViews: cur.pageViews, conversions: cur.conversions, bounceRate: 0, avgSessionDuration: 0 },
          previous: { totalVisitors: prev.visitors, pageViews: prev.pageViews, conversions: prev.conversions },
          topPages: [...pages].map(([url, views]) => ({ url, views })).sort((a, b) => b.views - a.views).slice(0, 10),
          range: `${days}d`,
        });
      }
      if (p === "/api/dashboard/timeseries") {
        const days = Number((url.searchParams.get("range") ?? "7d").replace("d", "")) || 7;
        const today = new Date(); today.setUTCHours(0, 0, 0, 0);
        const points = [];
        for (let i = days - 1; i >= 0; i--) { const from = today.getTime() - i * DAY; const st = stats(s.id, from, from + DAY); points.push({ date: new Date(from).toISOString().slice(0, 10), visitors: st.visitors, pageViews: st.pageViews }); }
        return send(res, 200, { points });
      }
      if (p === "/api/dashboard/recent-activity") {
        const limit = Number(url.searchParams.get("limit") ?? 10);
        return send(res, 200, events.filter((e) => e.websiteId === s.id).slice(-limit).reverse().map((e) => ({ id: e.id, type: e.type, name: e.name, url: e.url, sessionId: e.sessionId, country: "", value: e.value, timestamp: new Date(e.ts).toISOString() })));
      }
    }
    return err(res, 404, "not found");
  }
  // static dashboard
  const file = join(dist, p);
  if (p.startsWith("/assets/") && existsSync(file) && statSync(file).isFile()) {
    res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
    return res.end(readFileSync(file));
  }
  res.writeHead(ROUTES.has(p) ? 200 : 404, { "Content-Type": "text/html" });
  res.end(readFileSync(join(dist, "index.html")));
});
server.listen(Number(port), host, () => {
  const a = server.address();
  console.log(`Dashboard: http://${a.address}:${a.port}/`);
});
process.on("SIGTERM", () => process.exit(0));
