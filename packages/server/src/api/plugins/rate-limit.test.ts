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
