import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError, createApiClient } from "../../src/api/client.ts";
import type { TokenStorage } from "../../src/api/client.ts";

class MemoryStorage implements TokenStorage {
  map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** A fake fetch answering from a list of handlers in order and recording every call. */
function fakeFetch(answers: ((call: Call) => Response)[]) {
  const calls: Call[] = [];
  const fn = async (url: string, init?: RequestInit) => {
    const call: Call = { url, method: init?.method ?? "GET", headers: (init?.headers ?? {}) as Record<string, string>, body: init?.body as string | undefined };
    calls.push(call);
    const next = answers.shift();
    if (!next) throw new Error(`unexpected call ${call.method} ${url}`);
    return next(call);
  };
  return { fn, calls };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
/** The daemon's answer to an expired, revoked or invalid access token (RFC 6750). */
const tokenRejected = (body = "", statusText?: string) =>
  new Response(body, { status: 401, statusText, headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' } });

function setup(answers: ((call: Call) => Response)[]) {
  const storage = new MemoryStorage();
  storage.setItem("accessToken", "old-access");
  storage.setItem("refreshToken", "the-refresh");
  const fake = fakeFetch(answers);
  const client = createApiClient({ fetch: fake.fn, storage });
  return { storage, client, calls: fake.calls };
}

test("bearer header on every call, JSON content type only with a body", async () => {
  const { client, calls } = setup([() => json(200, [1]), () => json(201, { id: 1 })]);
  assert.deepEqual(await client.get("/api/websites"), [1]);
  await client.post("/api/websites", { name: "a" });
  assert.equal(calls[0].headers.Authorization, "Bearer old-access");
  assert.equal(calls[0].headers["Content-Type"], undefined);
  assert.equal(calls[1].headers["Content-Type"], "application/json");
  assert.equal(calls[1].body, '{"name":"a"}');
});

test("401 invalid_token: one refresh with the stored refresh token, then one retry with the new token", async () => {
  const { client, calls, storage } = setup([
    () => tokenRejected("expired"),
    () => json(200, { accessToken: "new-access", refreshToken: "next-refresh" }),
    () => json(200, { ok: true }),
  ]);
  assert.deepEqual(await client.get("/api/websites"), { ok: true });
  assert.equal(calls.length, 3);
  assert.equal(calls[1].url, "/api/refresh");
  assert.equal(calls[1].method, "POST");
  assert.deepEqual(JSON.parse(calls[1].body!), { refreshToken: "the-refresh" });
  assert.equal(calls[2].headers.Authorization, "Bearer new-access");
  assert.equal(storage.getItem("accessToken"), "new-access");
  assert.equal(storage.getItem("refreshToken"), "next-refresh", "the rotated refresh token is kept");
});

test("logout sends the refresh token to /api/logout and forgets both tokens", async () => {
  const { client, calls, storage } = setup([() => new Response(null, { status: 204 })]);
  await client.logout();
  assert.equal(calls[0].url, "/api/logout");
  assert.deepEqual(JSON.parse(calls[0].body!), { refreshToken: "the-refresh" });
  assert.equal(storage.getItem("accessToken"), null);
  assert.equal(storage.getItem("refreshToken"), null);
});

test("a second token failure after the refresh is raised, not retried again", async () => {
  const { client, calls } = setup([
    () => tokenRejected("no"),
    () => json(200, { accessToken: "new-access" }),
    () => tokenRejected("still no"),
  ]);
  await assert.rejects(client.get("/api/x"), (e: Error) => e instanceof ApiError && e.message === "401: still no");
  assert.equal(calls.length, 3);
});

test("a 401 for a wrong password or code, and a 403, are answers: sent once, no refresh", async () => {
  const { client, calls } = setup([
    () => new Response('{"error":{"message":"current password is incorrect"}}', { status: 401, headers: { "WWW-Authenticate": "Bearer" } }),
    () => new Response('{"error":{"message":"invalid two-factor code"}}', { status: 401 }),
    () => new Response("no", { status: 403 }),
  ]);
  await assert.rejects(client.put("/api/user/password", { currentPassword: "x" }), { message: '401: {"error":{"message":"current password is incorrect"}}' });
  await assert.rejects(client.post("/api/user/2fa/enable", { code: "1" }), { message: '401: {"error":{"message":"invalid two-factor code"}}' });
  await assert.rejects(client.get("/api/x"), { message: "403: no" });
  assert.deepEqual(
    calls.map((c) => c.url),
    ["/api/user/password", "/api/user/2fa/enable", "/api/x"],
  );
});

test("no refresh starts while the page is being left: the rotated token would be lost with it", async () => {
  const storage = new MemoryStorage();
  storage.setItem("accessToken", "old-access");
  storage.setItem("refreshToken", "the-refresh");
  const fake = fakeFetch([() => tokenRejected("expired")]);
  const client = createApiClient({ fetch: fake.fn, storage, leaving: () => true });
  assert.equal(await client.refresh(), false);
  await assert.rejects(client.get("/api/x"), { message: "401: expired" });
  assert.deepEqual(
    fake.calls.map((c) => c.url),
    ["/api/x"],
  );
  assert.equal(storage.getItem("refreshToken"), "the-refresh");
});

test("failed refresh raises the original error response", async () => {
  const { client, calls, storage } = setup([
    () => tokenRejected('{"error":{"message":"token expired"}}'),
    () => new Response("bad refresh", { status: 401 }),
  ]);
  await assert.rejects(client.get("/api/x"), { message: '401: {"error":{"message":"token expired"}}' });
  assert.equal(calls.length, 2);
  assert.equal(storage.getItem("accessToken"), "old-access");
});

test("a refresh answer without accessToken counts as failed", async () => {
  const { client, calls } = setup([() => tokenRejected("", "Unauthorized"), () => json(200, {})]);
  await assert.rejects(client.get("/api/x"), { message: "401: Unauthorized" });
  assert.equal(calls.length, 2);
});

test("nullOn401 yields null after the refresh attempt fails", async () => {
  const { client } = setup([() => tokenRejected(), () => new Response("", { status: 401 })]);
  assert.equal(await client.get("/api/user", { nullOn401: true }), null);
});

test("errors are STATUS: body or status text; empty bodies (204) are fine", async () => {
  const { client } = setup([
    () => new Response("boom", { status: 500 }),
    () => new Response(null, { status: 404, statusText: "Not Found" }),
    () => new Response(null, { status: 204 }),
  ]);
  await assert.rejects(client.get("/a"), { message: "500: boom" });
  await assert.rejects(client.get("/b"), { message: "404: Not Found" });
  assert.equal(await client.del("/api/websites/1"), undefined);
});

test("concurrent 401s share one refresh", async () => {
  let refreshes = 0;
  const storage = new MemoryStorage();
  storage.setItem("accessToken", "old");
  storage.setItem("refreshToken", "r");
  const client = createApiClient({
    storage,
    fetch: async (url, init) => {
      if (url === "/api/refresh") {
        refreshes++;
        await new Promise((r) => setTimeout(r, 10));
        return json(200, { accessToken: "new" });
      }
      const auth = (init?.headers as Record<string, string>).Authorization;
      return auth === "Bearer new" ? json(200, { url }) : tokenRejected();
    },
  });
  const [a, b] = await Promise.all([client.get("/a"), client.get("/b")]);
  assert.deepEqual([a, b], [{ url: "/a" }, { url: "/b" }]);
  assert.equal(refreshes, 1);
});
