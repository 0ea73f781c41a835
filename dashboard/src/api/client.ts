//! The one HTTP client of the dashboard: bearer header, JSON bodies, one token refresh and one retry on
//! 401/403, errors as Error("STATUS: body"). Hooks call it; components never call fetch. The server
//! rotates the refresh token on every refresh (API.md), so the client stores the new one it is given.

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
  /** Yield null instead of failing when the answer (after the refresh attempt) is 401. */
  nullOn401?: boolean;
}

export interface ApiClientOptions {
  fetch?: FetchLike;
  storage?: TokenStorage;
  baseUrl?: string;
}

export interface ApiClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  del<T = void>(path: string): Promise<T>;
  /** GET returning the raw body text (CSV export). */
  text(path: string): Promise<string>;
  /** One POST /api/refresh; true when a new access token was stored. Concurrent callers share it. */
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
    if (first.status !== 401 && first.status !== 403) return first;
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
