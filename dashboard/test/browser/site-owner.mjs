// Helpers of the events, export and organizations browser tests: an account with websites made through the
// API (the sign-up screen has its own tests), signed in in the browser, and visitor hits sent through the
// real ingest path (POST /api/track, from a browser user agent; X-Forwarded-For from loopback, a trusted
// proxy, places the visitor on a public network).
export const VISITOR_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

async function call(base, method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Registers `email`, creates `sites` ([{name, domain, trackingLevel}]) and signs the page in. */
export async function ownerWithSites(page, base, email, sites) {
  const session = await call(base, "POST", "/api/register", null, { email, password: "correct-horse" });
  const created = [];
  for (const site of sites) created.push(await call(base, "POST", "/api/websites", session.accessToken, site));
  await page.goto("/auth");
  await page.evaluate(({ a, r }) => {
    localStorage.setItem("accessToken", a);
    localStorage.setItem("refreshToken", r);
  }, { a: session.accessToken, r: session.refreshToken });
  return { token: session.accessToken, sites: created, api: (method, path, body) => call(base, method, path, session.accessToken, body) };
}

/** One visitor hit through POST /api/track; resolves once the daemon acknowledged it (on disk). */
export async function track(base, body, forwardedFor) {
  const res = await fetch(`${base}/api/track`, {
    method: "POST",
    headers: { "Content-Type": "text/plain", "User-Agent": VISITOR_UA, ...(forwardedFor ? { "X-Forwarded-For": forwardedFor } : {}) },
    body: JSON.stringify(body),
  });
  if (res.status !== 202) throw new Error(`track: ${res.status} ${await res.text()}`);
}

/** Whether the page is wider than the viewport (a horizontal scroll bar on the whole page). */
export async function overflowsHorizontally(page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}
