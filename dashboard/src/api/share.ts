//! Share links (issue 37): the owner's calls, and the client a share page reads through. A share page has no
//! sign-in: its reads go to /api/share/{slug}/… with the link's share token (if any) as the bearer, never
//! the owner's tokens, and its hooks are the dashboard's own with their paths rewritten by `sharePath`.
import { type ApiClient, type TokenStorage, ACCESS_TOKEN_KEY, createApiClient } from "./client";

export interface SharedLink {
  id: number;
  slug: string;
  name: string;
  passwordRequired: boolean;
  /** Stats API v2 JSON text, `[]` for none. */
  filters: string;
  embed: boolean;
  allowedOrigins: string[];
  createdAt: string;
  url: string;
}

export interface NewSharedLink {
  name: string;
  password?: string;
  filters?: string;
  embed?: boolean;
  allowedOrigins?: string[];
}

export interface ShareInfo {
  siteName: string;
  domain: string;
  linkName: string;
  filters: string;
  embed: boolean;
  passwordRequired: boolean;
}

/** A share page's scope: its slug and the client its reads go through. */
export interface ShareScope {
  slug: string;
  client: ApiClient;
}

/** Where a share token is kept for the tab's life (sessionStorage: never the owner's localStorage). */
export const shareTokenKey = (slug: string) => `share:${slug}`;

/** A client whose bearer is the share token (none for a link without password) and that never refreshes. */
export function shareClient(token: string | null): ApiClient {
  const values = new Map<string, string>();
  if (token) values.set(ACCESS_TOKEN_KEY, token);
  const storage: TokenStorage = {
    getItem: (k) => values.get(k) ?? null,
    setItem: (k, v) => void values.set(k, v),
    removeItem: (k) => void values.delete(k),
  };
  return createApiClient({ storage });
}

/**
 * The share read of an owner's site read: `/api/dashboard/{overview|timeseries}?website_id=N&q` and
 * `/api/websites/N/{read}?q` become `/api/share/{slug}/{read}?q`. Any other path is not a share read and stays
 * as it is (the daemon answers it 401 or 404 for a share token).
 */
export function sharePath(path: string, slug: string): string {
  const base = `/api/share/${encodeURIComponent(slug)}`;
  const dashboard = /^\/api\/dashboard\/(overview|timeseries)\?website_id=[^&]*&?(.*)$/.exec(path);
  if (dashboard) return `${base}/${dashboard[1]}${dashboard[2] ? `?${dashboard[2]}` : ""}`;
  const site = /^\/api\/websites\/[^/?]+\/(.+)$/.exec(path);
  if (site) return `${base}/${site[1]}`;
  return path;
}
