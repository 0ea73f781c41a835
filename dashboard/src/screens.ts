//! Every screen of the dashboard, once: its path, the browser tab's name for it, its sidebar entry. App.tsx's
//! routes, the sidebar and the tab title read this table; the daemon's index.html routes are checked against it
//! (test/unit/screens.test.ts). Each screen's page component is in App.tsx's `PAGES`, keyed by these paths (a
//! path without a page, or a page without a path, does not type-check): the unit tests import this table
//! without bundling every page.
import type { ComponentType, SVGProps } from "react";
import {
  IconActivity,
  IconBuilding,
  IconChart,
  IconDashboard,
  IconDownload,
  IconFilter,
  IconGlobe,
  IconRoute,
  IconSettings,
  IconVideo,
  IconZap,
} from "./components/ui/icons";

export interface Screen {
  path: string;
  /** The screen's name in the browser tab's title ("Name · Site · tracker"). */
  title: string;
  /** Whether the screen shows one selected site, which the tab title then names. */
  perSite: boolean;
  /** Shown without signing in; every other screen is inside the signed-in layout. */
  public?: boolean;
  /** Its sidebar entry; screens without one are reached by links. The sidebar keeps this table's order. */
  nav?: { label: string; icon: ComponentType<SVGProps<SVGSVGElement>> };
}

export const SCREENS = [
  { path: "/", title: "Dashboard", perSite: true, nav: { label: "Dashboard", icon: IconDashboard } },
  {
    path: "/advanced-analytics",
    title: "Advanced Analytics",
    perSite: true,
    nav: { label: "Advanced Analytics", icon: IconChart },
  },
  { path: "/websites", title: "Websites", perSite: false, nav: { label: "Websites", icon: IconGlobe } },
  { path: "/live", title: "Live Visitors", perSite: true, nav: { label: "Live Visitors", icon: IconActivity } },
  { path: "/session-replays", title: "Session Replays", perSite: true, nav: { label: "Session Replays", icon: IconVideo } },
  { path: "/events", title: "Events", perSite: true, nav: { label: "Events", icon: IconZap } },
  { path: "/organizations", title: "Organizations", perSite: true, nav: { label: "Organizations", icon: IconBuilding } },
  { path: "/funnels", title: "Funnels", perSite: true, nav: { label: "Funnels", icon: IconFilter } },
  {
    path: "/customer-journeys",
    title: "Customer Journeys",
    perSite: true,
    nav: { label: "Customer Journeys", icon: IconRoute },
  },
  { path: "/export", title: "Export Data", perSite: false, nav: { label: "Export Data", icon: IconDownload } },
  { path: "/settings", title: "Settings", perSite: false, nav: { label: "Settings", icon: IconSettings } },
  { path: "/dashboard", title: "Analytics Dashboard", perSite: true },
  { path: "/visitor-stream", title: "Visitor Stream", perSite: true },
  { path: "/basic-dashboard", title: "All Sites", perSite: false },
  { path: "/auth", title: "Sign In", perSite: false, public: true },
  { path: "/verify-email", title: "Email Verification", perSite: false, public: true },
  { path: "/invitations", title: "Invitation", perSite: false },
] as const satisfies readonly Screen[];

export type ScreenPath = (typeof SCREENS)[number]["path"];

/** The sidebar's entries, in order. */
export const NAV_ITEMS = SCREENS.flatMap((s: Screen) => (s.nav ? [{ to: s.path, ...s.nav }] : []));

/** The screen at `pathname`, if any (an unknown path is the not-found page). */
export function screenAt(pathname: string): Screen | undefined {
  return SCREENS.find((s: Screen) => s.path === pathname);
}

/** The tab title at `pathname`: "Screen · Site · tracker", naming `siteName` on the screens that show one site,
 * so tabs and history tell pages apart. */
export function documentTitle(pathname: string, siteName?: string): string {
  const screen = screenAt(pathname) ?? { title: "Page Not Found", perSite: false };
  const parts = [screen.title];
  if (screen.perSite && siteName) parts.push(siteName);
  parts.push("tracker");
  return parts.join(" · ");
}
