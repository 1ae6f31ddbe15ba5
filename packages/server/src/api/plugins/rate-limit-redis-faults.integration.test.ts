// The shared rate limits while their Redis is frozen (SIGSTOP) and after it thaws (docs/api.md "Rate limits"):
// a call that does not answer within REDIS_TIMEOUT_MS falls back at once to this process's own count, which is
// then enforced and said in the RateLimit-* headers; one warning per incident; the `Rate limits` status
// component is `degraded` meanwhile; after the thaw, the increments Redis receives late are dropped, so nobody
// is refused for requests already served. A Redis of the test's own, never the shared one.
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/fixtures/database.ts";
import { type PrivateRedis, startPrivateRedis } from "../../../test/fixtures/private-redis.ts";
import { type App, buildApp } from "../app.ts";

const LIMIT = 5;

describe("rate limits while Redis is frozen", () => {
  const keyPrefix = `avail-test:${process.pid}:${randomBytes(4).toString("hex")}:`;
  const lines: { level: number; msg: string }[] = [];
  let redis: PrivateRedis;
  let database: TestDatabase;
  let app: App;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    database = await createTestDatabase("pglite");
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    app = await buildApp({
      config: testConfig({
        REDIS_URL: redis.url,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        // Generous for a shared test machine; a frozen Redis never answers, so any bound is passed.
        REDIS_TIMEOUT_MS: "250",
      }),
      db: database,
      rateLimitKeyPrefix: keyPrefix,
      logger: pino({ level: "info" }, sink),
    });
  }, 60_000);
  afterAll(async () => {
    redis?.thaw();
    await app?.close();
    await database?.close();
    await redis?.stop();
  });

  const get = (url: string, ip: string) => app.inject({ url, remoteAddress: ip });
  // Each status read from an address of its own: the thaw is polled for, and LIMIT reads from one address
  // would be refused.
  let reads = 0;
  const rateLimits = async () => {
    reads++;
    const status = (await get("/v1/status", `198.18.${reads >> 8}.${reads & 255}`)).json();
    return status.components.find((c: { name: string }) => c.name === "Rate limits");
  };
  const remaining = async (ip: string) => {
    const response = await get("/health", ip);
    return [response.statusCode, response.headers["ratelimit-remaining"]];
  };

  it("counts in Redis while it answers", async () => {
    expect(await rateLimits()).toEqual({ name: "Rate limits", state: "operational", store: "redis" });
    expect(await remaining("198.51.100.1")).toEqual([200, String(LIMIT - 1)]);
  });

  it("enforces this process's own count while Redis is frozen, says so, and logs it once", async () => {
    redis.freeze();
    // The first call meets the frozen Redis and is the one that waits REDIS_TIMEOUT_MS; it is sent by the client
    // that is refused after the thaw if late increments counted.
    expect(await remaining("198.51.100.3")).toEqual([200, String(LIMIT - 1)]);
    expect(await rateLimits()).toEqual({ name: "Rate limits", state: "degraded", store: "process" });
    // 198.51.100.2's own count in this process, enforced: LIMIT requests, then 429 with the headers that say so.
    const seen = [];
    for (let i = 0; i < LIMIT + 1; i++) seen.push(await remaining("198.51.100.2"));
    expect(seen).toEqual([
      ...Array.from({ length: LIMIT }, (_, i) => [200, String(LIMIT - 1 - i)]),
      [429, "0"],
    ]);
    for (let i = 1; i < LIMIT; i++) await get("/health", "198.51.100.3");
    const warnings = lines.filter((l) => /rate limits/i.test(l.msg) && l.level === 40);
    expect(warnings).toHaveLength(1);
  });

  it("counts in Redis again after the thaw, without the increments that arrived late", async () => {
    redis.thaw();
    let state: unknown;
    while (state !== "operational") {
      state = (await rateLimits())?.state;
      if (state !== "operational") await new Promise((r) => setTimeout(r, 100));
    }
    expect(await rateLimits()).toEqual({ name: "Rate limits", state: "operational", store: "redis" });
    // Served five times while frozen; Redis counts only what it was told in time: this one.
    expect(await remaining("198.51.100.3")).toEqual([200, String(LIMIT - 1)]);
    expect(lines.filter((l) => /rate limits/i.test(l.msg) && l.level === 30)).toHaveLength(1);
  }, 60_000);
});
