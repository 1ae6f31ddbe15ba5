// GET /metrics on the public port is off the rate limits (a scraper must never be refused), and each rendering
// reads the database (the indexer's, watchers' and deliverer's gauges): scrapes that arrive while one renders share
// that rendering, so a client sending many at once costs one rendering, not one each.
import { Registry } from "prom-client";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/fixtures/database.ts";
import { type App, buildApp } from "../app.ts";

let database: TestDatabase;
let app: App;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  app = await buildApp({ config: testConfig({ RATE_LIMIT_PER_MINUTE: "5" }), db: database, redis: null });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await app?.close();
  await database?.close();
});

it("renders once for scrapes that arrive together, and afresh for the next one", async () => {
  const render = vi.spyOn(Registry.prototype, "metrics");
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => app.inject({ url: "/metrics", remoteAddress: "203.0.113.70" })),
  );
  // Still never refused: 20 scrapes from one address against a global limit of 5.
  expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
  expect(new Set(answers.map((a) => a.body)).size).toBe(1);
  expect(render).toHaveBeenCalledTimes(1);
  // A scrape after those is its own rendering (nothing is cached between scrapes).
  expect((await app.inject({ url: "/metrics" })).statusCode).toBe(200);
  expect(render).toHaveBeenCalledTimes(2);
});
