//! The one HTTP client of the dashboard: bearer header, JSON bodies, one token refresh and one retry when the
//! server says the access token is no longer good (401 with `WWW-Authenticate: Bearer error="invalid_token"`;
//! a 401 for a wrong password or code is the answer, not a reason to send it again), errors as
//! Error("STATUS: body"). Hooks call it; components never call fetch. The server rotates the refresh token on
//! every refresh (API.md), so the client stores the new one it is given; a page on its way out starts no
//! refresh, as it could not store the new token.

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** The subset of the Web Storage API the client needs (localStorage in the browser, a map in tests). */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const ACCESS_TOKEN_KEY = "accessToken";
export const REFRESH_TOKEN_KEY = "refreshToken";

/** An HTTP failure; `message` is "STATUS: body text" (or the status text when the body is empty). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

export interface RequestOptions {
  body?: unknown;
  /** Yield null instead of failing when the answer (after any refresh attempt) is 401. */
  nullOn401?: boolean;
}

export interface ApiClientOptions {
  fetch?: FetchLike;
  storage?: TokenStorage;
  baseUrl?: string;
  /** Whether the page is being left (pagehide seen); by default the browser's own page events say. */
  leaving?: () => boolean;
}

/** Whether an answer says the access token is expired, revoked or invalid (RFC 6750 `invalid_token`). */
export function tokenRejected(res: Response): boolean {
  return res.status === 401 && /error="?invalid_token/.test(res.headers.get("WWW-Authenticate") ?? "");
}

/** Whether this page is being left: set at pagehide, cleared when a page comes back from the back/forward cache. */
function pageLeaving(): () => boolean {
  let leaving = false;
  if (typeof window !== "undefined" && typeof window.addEventListener === "function") {
    window.addEventListener("pagehide", () => {
      leaving = true;
    });
    window.addEventListener("pageshow", () => {
      leaving = false;
    });
  }
  return () => leaving;
}

export interface ApiClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  del<T = void>(path: string): Promise<T>;
  /** GET returning the raw body text (CSV export). */
  text(path: string): Promise<string>;
  /** One POST /api/refresh; true when a new access token was stored. Concurrent callers share it; none starts
   * while the page is being left (the rotated token would be lost with the page). */
  refresh(): Promise<boolean>;
  /** Ends the sign-in on the server (POST /api/logout) as far as it can, then forgets both tokens. */
  logout(): Promise<void>;
  accessToken(): string | null;
  setTokens(accessToken: string, refreshToken: string): void;
  clearTokens(): void;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const storage: TokenStorage = options.storage ?? globalThis.localStorage;
  const base = options.baseUrl ?? "";
  const leaving = options.leaving ?? pageLeaving();
  let refreshing: Promise<boolean> | null = null;

  function headers(hasBody: boolean): Record<string, string> {
    const h: Record<string, string> = {};
    const token = storage.getItem(ACCESS_TOKEN_KEY);
    if (token) h.Authorization = `Bearer ${token}`;
    if (hasBody) h["Content-Type"] = "application/json";
    return h;
  }

  async function refreshOnce(): Promise<boolean> {
    const refreshToken = storage.getItem(REFRESH_TOKEN_KEY);
    if (!refreshToken) return false;
    try {
      const res = await doFetch(`${base}/api/refresh`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ refreshToken }),
      });
      if (!res.ok) return false;
      const data = (await res.json()) as { accessToken?: unknown; refreshToken?: unknown };
      if (typeof data.accessToken !== "string" || !data.accessToken) return false;
      storage.setItem(ACCESS_TOKEN_KEY, data.accessToken);
      if (typeof data.refreshToken === "string" && data.refreshToken) {
        storage.setItem(REFRESH_TOKEN_KEY, data.refreshToken);
      }
      return true;
    } catch {
      return false;
    }
  }

  function refresh(): Promise<boolean> {
    if (leaving()) return Promise.resolve(false);
    if (!refreshing) {
      refreshing = refreshOnce().finally(() => {
        refreshing = null;
      });
    }
    return refreshing;
  }

  async function send(method: string, path: string, body: unknown): Promise<Response> {
    const hasBody = body !== undefined;
    const attempt = () =>
      doFetch(`${base}${path}`, {
        method,
        headers: headers(hasBody),
        body: hasBody ? JSON.stringify(body) : undefined,
      });
    const first = await attempt();
    if (!tokenRejected(first)) return first;
    if (!(await refresh())) return first;
    return attempt();
  }

  async function fail(res: Response): Promise<never> {
    let text = "";
    try {
      text = await res.text();
    } catch {
      text = "";
    }
    throw new ApiError(res.status, res.statusText, text);
  }

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const res = await send(method, path, opts.body);
    if (!res.ok) {
      if (opts.nullOn401 && res.status === 401) return null as T;
      return fail(res);
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    if (!text) return undefined as T;
    return JSON.parse(text) as T;
  }

  return {
    request,
    get: (path, opts) => request("GET", path, opts),
    post: (path, body) => request("POST", path, { body }),
    put: (path, body) => request("PUT", path, { body }),
    del: (path) => request("DELETE", path),
    async text(path) {
      const res = await send("GET", path, undefined);
      if (!res.ok) return fail(res);
      return res.text();
    },
    refresh,
    async logout() {
      const refreshToken = storage.getItem(REFRESH_TOKEN_KEY);
      const accessToken = storage.getItem(ACCESS_TOKEN_KEY);
      storage.removeItem(ACCESS_TOKEN_KEY);
      storage.removeItem(REFRESH_TOKEN_KEY);
      if (!refreshToken && !accessToken) return;
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
      try {
        await doFetch(`${base}/api/logout`, { method: "POST", headers, body: JSON.stringify({ refreshToken }) });
      } catch {
        // Offline: the tokens are forgotten here all the same, and the refresh token expires on its own.
      }
    },
    accessToken: () => storage.getItem(ACCESS_TOKEN_KEY),
    setTokens(accessToken, refreshToken) {
      storage.setItem(ACCESS_TOKEN_KEY, accessToken);
      storage.setItem(REFRESH_TOKEN_KEY, refreshToken);
    },
    clearTokens() {
      storage.removeItem(ACCESS_TOKEN_KEY);
      storage.removeItem(REFRESH_TOKEN_KEY);
    },
  };
}
