import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/fixtures/database.ts";
import { type App, buildApp } from "../app.ts";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describe("global rate limit shared through Redis", () => {
  const keyPrefix = `namereg-test:${process.pid}:${randomBytes(6).toString("hex")}:`;
  let database: TestDatabase;
  let apps: App[] = [];

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    const config = testConfig({
      RATE_LIMIT_PER_MINUTE: "3",
      AUTH_RATE_LIMIT_PER_MINUTE: "2",
      REDIS_URL,
      // Not about the deadline (rate-limit-redis-faults.integration.test.ts is): room for a loaded test machine.
      REDIS_TIMEOUT_MS: "2000",
    });
    // Each app opens its own Redis connection from REDIS_URL, as separate replicas would.
    apps = await Promise.all([
      buildApp({ config, db: database, rateLimitKeyPrefix: keyPrefix }),
      buildApp({ config, db: database, rateLimitKeyPrefix: keyPrefix }),
    ]);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await database?.close();
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  it("counts requests to either replica against one limit", async () => {
    const [a, b] = apps;
    if (a === undefined || b === undefined) throw new Error("apps not built");
    const request = { url: "/health", remoteAddress: "192.0.2.10" };
    const statuses = [];
    for (const app of [a, b, a]) statuses.push((await app.inject(request)).statusCode);
    expect(statuses).toEqual([200, 200, 200]);

    const limited = await b.inject(request);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: "rate_limited" });
    expect(limited.headers["ratelimit-limit"]).toBe("3");
    expect(limited.headers["ratelimit-remaining"]).toBe("0");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);

    const redis = new Redis(REDIS_URL);
    try {
      expect(await redis.get(`${keyPrefix}192.0.2.10`)).toBe("4");
    } finally {
      redis.disconnect();
    }
  });

  it("shares a per-route group's count too", async () => {
    const [a, b] = apps;
    if (a === undefined || b === undefined) throw new Error("apps not built");
    const request = { url: "/auth?account=x", remoteAddress: "192.0.2.44" };
    expect((await a.inject(request)).statusCode).toBe(400);
    expect((await b.inject(request)).statusCode).toBe(400);
    const limited = await a.inject(request);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: "rate_limited", detail: "at most 2 auth requests a minute" });
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${keyPrefix}*auth:192.0.2.44`);
      expect(keys).toHaveLength(1);
      expect(await redis.get(keys[0] as string)).toBe("3");
    } finally {
      redis.disconnect();
    }
  });
});
