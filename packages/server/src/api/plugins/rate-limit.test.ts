import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/fixtures/database.ts";
import { type App, buildApp } from "../app.ts";

describe("global rate limit (in memory)", () => {
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    app = await buildApp({ config: testConfig({ RATE_LIMIT_PER_MINUTE: "3" }), db: database, redis: null });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it("allows the limit with IETF headers, then answers 429 rate_limited with Retry-After", async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await app.inject({ url: "/health", remoteAddress: "203.0.113.7" });
      expect(response.statusCode).toBe(200);
      expect(response.headers["ratelimit-limit"]).toBe("3");
      expect(Number(response.headers["ratelimit-reset"])).toBeGreaterThan(0);
      remaining.push(String(response.headers["ratelimit-remaining"]));
    }
    expect(remaining).toEqual(["2", "1", "0"]);

    const limited = await app.inject({
      url: "/health",
      remoteAddress: "203.0.113.7",
      headers: { origin: "https://wallet.example" },
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: "rate_limited" });
    expect(limited.headers["ratelimit-limit"]).toBe("3");
    expect(limited.headers["ratelimit-remaining"]).toBe("0");
    expect(Number(limited.headers["ratelimit-reset"])).toBeGreaterThan(0);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // A browser client must be able to read the 429 to back off.
    expect(limited.headers["access-control-allow-origin"]).toBe("*");
    expect(limited.headers["x-ratelimit-limit"]).toBeUndefined();
  });

  it("counts per client address, unknown routes included", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await app.inject({ url: "/no/such/route", remoteAddress: "198.51.100.1" })).statusCode).toBe(
        404,
      );
    }
    const limited = await app.inject({ url: "/health", remoteAddress: "198.51.100.1" });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: "rate_limited" });
    expect((await app.inject({ url: "/health", remoteAddress: "198.51.100.2" })).statusCode).toBe(200);
  });
});

describe("per-route limits on top of the global one", () => {
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    app = await buildApp({
      config: testConfig({
        RATE_LIMIT_PER_MINUTE: "100",
        AUTH_RATE_LIMIT_PER_MINUTE: "2",
        PREPARE_RATE_LIMIT_PER_MINUTE: "3",
        SUBMIT_RATE_LIMIT_PER_MINUTE: "1",
        CHAIN_READ_RATE_LIMIT_PER_MINUTE: "3",
      }),
      db: database,
      redis: null,
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });
  const call = (method: "GET" | "POST", url: string, remoteAddress: string) =>
    app.inject({ method, url, remoteAddress, ...(method === "POST" ? { payload: {} } : {}) });

  it("limits SEP-10 challenges and tokens together, with the group's headers", async () => {
    const ip = "192.0.2.10";
    const first = await call("GET", "/auth?account=x", ip);
    expect(first.statusCode).toBe(400);
    expect(first.headers["ratelimit-limit"]).toBe("2");
    expect(first.headers["ratelimit-remaining"]).toBe("1");
    expect((await call("POST", "/auth", ip)).statusCode).toBe(400);
    const limited = await call("GET", "/auth?account=x", ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: "rate_limited", detail: "at most 2 auth requests a minute" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // The group is per address and apart from other routes.
    expect((await call("GET", "/auth?account=x", "192.0.2.11")).statusCode).toBe(400);
    expect((await call("GET", "/health", ip)).statusCode).toBe(200);
  });

  it("counts a group per client as the global limit does: an IPv6 /64 as one, a mapped IPv4 as the IPv4", async () => {
    // One client holds a whole /64: rotating the interface part must not buy a fresh group budget.
    const v6 = ["2001:db8:7:1::1", "2001:db8:7:1::2", "2001:db8:7:1:ffff::3"];
    expect((await call("GET", "/auth?account=x", v6[0] as string)).statusCode).toBe(400);
    expect((await call("GET", "/auth?account=x", v6[1] as string)).statusCode).toBe(400);
    const rotated = await call("GET", "/auth?account=x", v6[2] as string);
    expect(rotated.statusCode).toBe(429);
    expect(rotated.json()).toEqual({ error: "rate_limited", detail: "at most 2 auth requests a minute" });
    // Another /64 is another client.
    expect((await call("GET", "/auth?account=x", "2001:db8:7:2::1")).statusCode).toBe(400);
    // A dual-stack listener sees an IPv4 client as ::ffff:a.b.c.d: the same client as a.b.c.d.
    expect((await call("GET", "/auth?account=x", "192.0.2.50")).statusCode).toBe(400);
    expect((await call("GET", "/auth?account=x", "::ffff:192.0.2.50")).statusCode).toBe(400);
    expect((await call("GET", "/auth?account=x", "::ffff:192.0.2.50")).statusCode).toBe(429);
  });

  it("limits every prepare route as one group and every submit route as another", async () => {
    const ip = "192.0.2.20";
    for (const url of ["/records/prepare", "/subnames/prepare", "/v1/claim-fee/credit/GABC/prepare"]) {
      expect((await call("POST", url, ip)).statusCode).not.toBe(429);
    }
    expect((await call("POST", "/records/prepare", ip)).statusCode).toBe(429);
    expect((await call("POST", "/records/submit", ip)).statusCode).toBe(400);
    expect((await call("POST", "/records/submit", ip)).statusCode).toBe(429);
  });

  it("limits every GET that reads contract state live as one group, HEAD included", async () => {
    // Each is one or more simulations on the RPC (GET /v1/records one per text key): the global limit alone let one
    // client make the service ask the RPC thousands of times a minute. No RPC here: the answers are 503s, counted all the same.
    const ip = "192.0.2.60";
    const payee = "GARWRJQ372G3JCW7V57NKKG57RDQIAZTSCGQSBIYRDZ7XP3TKGEN6MXY";
    const first = await call("GET", "/v1/claim-fee", ip);
    expect(first.statusCode).not.toBe(429);
    expect([first.headers["ratelimit-limit"], first.headers["ratelimit-remaining"]]).toEqual(["3", "2"]);
    expect((await call("GET", `/v1/claim-fee/credit/${payee}`, ip)).statusCode).not.toBe(429);
    const head = await app.inject({ method: "HEAD", url: "/v1/claim-fee/acme", remoteAddress: ip });
    expect(head.statusCode).not.toBe(429);
    expect(head.headers["ratelimit-remaining"]).toBe("0");
    for (const url of [
      "/v1/records/acme/alice",
      "/v1/chain-address/acme/alice/ethereum",
      "/v1/chain-policy/acme",
      "/v1/subname-policy/acme",
      "/v1/subnames/acme/alice",
      "/v1/subnames/acme/alice/bob",
      "/v1/claim-fee",
    ]) {
      const limited = await call("GET", url, ip);
      expect([url, limited.statusCode]).toEqual([url, 429]);
      expect(limited.json()).toEqual({
        error: "rate_limited",
        detail: "at most 3 chain-read requests a minute",
      });
    }
    // Reads from the mirror alone stay under the global limit only.
    const mirror = await call("GET", "/v1/resolve/acme/alice", ip);
    expect(mirror.statusCode).not.toBe(429);
    expect(mirror.headers["ratelimit-limit"]).toBe("100");
    expect((await call("GET", "/v1/claim-fee", "192.0.2.61")).statusCode).not.toBe(429);
  });

  it("counts HEAD /auth in the auth group: it mints a challenge as GET does", async () => {
    const ip = "192.0.2.70";
    for (let i = 0; i < 2; i++) {
      const head = await app.inject({ method: "HEAD", url: "/auth?account=x", remoteAddress: ip });
      expect(head.statusCode).toBe(400);
    }
    const limited = await call("GET", "/auth?account=x", ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: "rate_limited", detail: "at most 2 auth requests a minute" });
  });

  it("takes a route's group from its own options, not from its path", async () => {
    const own = await buildApp({
      config: testConfig({ RATE_LIMIT_PER_MINUTE: "100", PREPARE_RATE_LIMIT_PER_MINUTE: "1" }),
      db: database,
      redis: null,
    });
    try {
      own.post("/v1/costly", { config: { limitGroup: "prepare", errors: [] } }, async () => ({ ok: true }));
      own.post("/v1/cheap/prepare", { config: { limitGroup: "global", errors: [] } }, async () => ({
        ok: true,
      }));
      const ip = "192.0.2.40";
      const post = (url: string) => own.inject({ method: "POST", url, remoteAddress: ip, payload: {} });
      expect((await post("/v1/costly")).statusCode).toBe(200);
      const limited = await post("/v1/costly");
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        error: "rate_limited",
        detail: "at most 1 prepare requests a minute",
      });
      // Declared global: its path ending in /prepare does not put it in the group.
      for (let i = 0; i < 3; i++) {
        const cheap = await post("/v1/cheap/prepare");
        expect(cheap.statusCode).toBe(200);
        expect(cheap.headers["ratelimit-limit"]).toBe("100");
      }
    } finally {
      await own.close();
    }
  });

  it("counts a limited route against the global limit too", async () => {
    const small = await buildApp({
      config: testConfig({ RATE_LIMIT_PER_MINUTE: "2", AUTH_RATE_LIMIT_PER_MINUTE: "50" }),
      db: database,
      redis: null,
    });
    try {
      const ip = "192.0.2.30";
      expect((await small.inject({ url: "/auth?account=x", remoteAddress: ip })).statusCode).toBe(400);
      expect((await small.inject({ url: "/auth?account=x", remoteAddress: ip })).statusCode).toBe(400);
      const third = await small.inject({ url: "/auth?account=x", remoteAddress: ip });
      expect(third.statusCode).toBe(429);
      expect(third.json()).toEqual({ error: "rate_limited" });
    } finally {
      await small.close();
    }
  });
});
