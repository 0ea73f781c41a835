//! The browser tab's title for each screen: "Screen · Site · tracker", so tabs and history tell pages apart
//! (every page was titled "tracker").

/** Each route's screen name, and whether the screen shows one selected site. */
const SCREENS: Record<string, { name: string; perSite: boolean }> = {
  "/": { name: "Dashboard", perSite: true },
  "/dashboard": { name: "Analytics Dashboard", perSite: true },
  "/advanced-analytics": { name: "Advanced Analytics", perSite: true },
  "/websites": { name: "Websites", perSite: false },
  "/live": { name: "Live Visitors", perSite: true },
  "/visitor-stream": { name: "Visitor Stream", perSite: true },
  "/funnels": { name: "Funnels", perSite: true },
  "/customer-journeys": { name: "Customer Journeys", perSite: true },
  "/session-replays": { name: "Session Replays", perSite: true },
  "/events": { name: "Events", perSite: true },
  "/organizations": { name: "Organizations", perSite: true },
  "/export": { name: "Export Data", perSite: false },
  "/settings": { name: "Settings", perSite: false },
  "/basic-dashboard": { name: "All Sites", perSite: false },
  "/auth": { name: "Sign In", perSite: false },
  "/verify-email": { name: "Email Verification", perSite: false },
};

/** The title of `pathname`, naming `siteName` on the screens that show one site. */
export function documentTitle(pathname: string, siteName?: string): string {
  const screen = SCREENS[pathname] ?? { name: "Page Not Found", perSite: false };
  const parts = [screen.name];
  if (screen.perSite && siteName) parts.push(siteName);
  parts.push("tracker");
  return parts.join(" · ");
}
