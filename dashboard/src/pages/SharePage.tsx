//! /share/:slug: a share link's dashboard (issue 37), without a sign-in: the Analytics Dashboard's overview,
//! chart, panels, range picker and filter bar, read-only, every read going to the link's /api/share/{slug}/…
//! (ShareContext in hooks/analytics.ts). A password link asks for its password first; its share token is kept in
//! sessionStorage for the tab's life. `?embed=true` drops the chrome and follows the embedding page's theme
//! (`?theme=light|dark`, else the reader's prefers-color-scheme).
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useParams, useSearchParams } from "react-router-dom";
import { ApiError } from "../api/client";
import { type ShareInfo, shareClient, shareTokenKey } from "../api/share";
import type { Website } from "../api/types";
import { ShareContext } from "../hooks/analytics";
import { useParamState } from "../hooks/selection";
import { SHARED_TABS, SiteAnalytics, type Tab } from "./AnalyticsDashboardPage";
import { IconActivity } from "../components/ui/icons";
import { Button, Card, ErrorNote, FieldError, FullPageSpinner, Input, Label } from "../components/ui/primitives";
import NotFoundPage from "./NotFoundPage";

/** A kept share token, unless it has expired. */
function keptToken(slug: string): string | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(shareTokenKey(slug)) ?? "null") as { token: string; until: number } | null;
    return kept && kept.until > Date.now() ? kept.token : null;
  } catch {
    return null;
  }
}

/** The embed's theme: `?theme=` when it says light or dark, else the reader's preference. */
function embedTheme(param: string | null): "light" | "dark" {
  if (param === "light" || param === "dark") return param;
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
}

export default function SharePage() {
  const { slug = "" } = useParams();
  const [search] = useSearchParams();
  const embed = search.get("embed") === "true";
  const [token, setToken] = useState<string | null>(() => keptToken(slug));
  const client = useMemo(() => shareClient(token), [token]);
  const info = useQuery({
    queryKey: ["share", slug, "info"],
    queryFn: () => shareClient(null).get<ShareInfo>(`/api/share/${encodeURIComponent(slug)}`),
    retry: false,
  });
  const theme = embed ? embedTheme(search.get("theme")) : "dark";
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    return () => {
      delete document.documentElement.dataset.theme;
    };
  }, [theme]);
  useEffect(() => {
    if (info.data) document.title = `${info.data.siteName} · shared · tracker`;
  }, [info.data]);

  if (info.isPending) return <FullPageSpinner />;
  if (info.error instanceof ApiError && info.error.status === 404) return <NotFoundPage />;
  if (info.error || !info.data) {
    return (
      <div className="p-6">
        <ErrorNote error={info.error} onRetry={() => void info.refetch()} />
      </div>
    );
  }
  const shared = info.data;
  const opened = (t: string, expiresIn: number) => {
    sessionStorage.setItem(shareTokenKey(slug), JSON.stringify({ token: t, until: Date.now() + expiresIn * 1000 }));
    setToken(t);
  };
  const body =
    shared.passwordRequired && !token ? (
      <PasswordForm slug={slug} info={shared} onOpened={opened} />
    ) : (
      <ShareContext.Provider value={{ slug, client }}>
        <SharedDashboard info={shared} />
      </ShareContext.Provider>
    );
  if (embed) return <main className="min-h-screen bg-gray-950 p-4" data-testid="share-embed">{body}</main>;
  return (
    <div className="min-h-screen bg-gray-950">
      <header className="flex items-center gap-3 border-b border-gray-800 px-6 py-4" data-testid="share-header">
        <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-500/15 text-indigo-300">
          <IconActivity className="h-4 w-4" />
        </span>
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold text-white">{shared.linkName}</p>
          <p className="text-xs text-gray-500">A shared, read-only dashboard · tracker</p>
        </div>
      </header>
      <main className="mx-auto max-w-7xl p-4 sm:p-6">{body}</main>
    </div>
  );
}

function SharedDashboard({ info }: { info: ShareInfo }) {
  const [tab, setTab] = useParamState<Tab>("tab", SHARED_TABS, "overview");
  // The site as SiteAnalytics draws it: no id or key of the owner's reaches the page (reads name the link).
  const website = { id: 0, name: info.siteName, domain: info.domain, trackingKey: "" } as Website;
  return (
    <div className="space-y-4">
      {info.filters !== "[]" ? (
        <p className="text-xs text-gray-500" data-testid="share-fixed-filters">
          This link always shows: <span className="font-mono">{info.filters}</span>
        </p>
      ) : null}
      <SiteAnalytics website={website} tab={tab} setTab={setTab} shared />
    </div>
  );
}

function PasswordForm({ slug, info, onOpened }: { slug: string; info: ShareInfo; onOpened: (token: string, expiresIn: number) => void }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await shareClient(null).post<{ token: string; expiresIn: number }>(
        `/api/share/${encodeURIComponent(slug)}/session`,
        { password },
      );
      onOpened(session.token, session.expiresIn);
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      setError(status === 429 ? "Too many attempts: wait a minute and try again." : status === 401 ? "Wrong password." : "Could not open the link.");
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card className="mx-auto mt-16 max-w-sm p-6">
      <form onSubmit={submit} className="space-y-4" data-testid="share-password-form">
        <div>
          <h1 className="text-lg font-semibold text-white">{info.siteName}</h1>
          <p className="text-sm text-gray-400">This shared dashboard is protected by a password.</p>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="share-password">Password</Label>
          <Input id="share-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
          <FieldError>{error ?? undefined}</FieldError>
        </div>
        <Button type="submit" disabled={busy || password === ""} className="w-full">
          {busy ? "Opening..." : "View dashboard"}
        </Button>
      </form>
    </Card>
  );
}
