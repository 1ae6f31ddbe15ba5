import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { buildApp } from "./app.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  await database?.close();
});

describe("the request log", () => {
  it("writes one line per request, with the request, the status and the time", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const app = await buildApp({
      config: testConfig({ LOG_LEVEL: "info" }),
      db: database,
      redis: null,
      logger,
    });
    try {
      await app.inject({ url: "/health" });
      await app.inject({ url: "/v1/names/acme" });
    } finally {
      await app.close();
    }
    const requests = lines.filter((l) => typeof l.reqId === "string");
    expect(requests).toEqual([
      expect.objectContaining({
        level: 30,
        msg: "request completed",
        req: expect.objectContaining({ method: "GET", url: "/health" }),
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
      expect.objectContaining({
        msg: "request completed",
        req: expect.objectContaining({ method: "GET", url: "/v1/names/acme" }),
        res: { statusCode: 404 },
      }),
    ]);
  });
});
