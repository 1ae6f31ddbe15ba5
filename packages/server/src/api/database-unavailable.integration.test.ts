// The database going away (stopped, frozen) while the API serves: data routes answer 503 database_unavailable
// with Retry-After instead of 500 or hanging, /v1/status answers within its bound and says the database is
// down, and everything is back once the database is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import { type PrivatePostgres, startPrivatePostgres } from "../../test/fixtures/private-postgres.ts";
import { openDatabase } from "../db/database.ts";
import type { Database } from "../db/types.ts";
import { type App, buildApp } from "./app.ts";

/** Generous: the bounds under test are ~1–2 s; this only tells a bounded answer from a hang. */
const HANG = 12_000;

describe("the API while its PostgreSQL is down or frozen", () => {
  let pg: PrivatePostgres;
  let database: Database;
  let app: App;
  let n = 0;
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    database = await openDatabase({ url: pg.url, statementTimeoutMs: 1000 });
    await database.migrate();
    app = await buildApp({ config: testConfig({ DATABASE_URL: pg.url }), db: database, redis: null });
  }, 120_000);
  afterAll(async () => {
    await pg?.thaw().catch(() => undefined);
    await app?.close();
    await database?.close();
    await pg?.stop();
  });

  /** A name never asked before, so the resolve cache cannot answer for the database. */
  const resolveFresh = () => request(`/v1/resolve/acme/n${n++}`);
  async function request(url: string) {
    const answer = app.inject({ url });
    const hung = new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), HANG).unref());
    const response = await Promise.race([answer, hung]);
    if (response === "hung") throw new Error(`${url} did not answer within ${HANG} ms`);
    return response;
  }
  const databaseState = async () => {
    const status = await request("/v1/status");
    expect(status.statusCode).toBe(200);
    return (status.json().components as { name: string; state: string }[]).find((c) => c.name === "Database")
      ?.state;
  };

  it("answers normally while the database is up", async () => {
    const response = await resolveFresh();
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: "name_not_found" });
    expect(await databaseState()).toBe("operational");
  });

  it("answers 503 database_unavailable with Retry-After while it is stopped", async () => {
    await pg.halt();
    const response = await resolveFresh();
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBe("5");
    expect(response.json()).toEqual({
      error: "database_unavailable",
      detail: "The database is not answering right now; nothing was changed. Retry shortly.",
    });
    expect(await databaseState()).toBe("down");
    await pg.start();
  }, 60_000);

  it("answers 503 instead of hanging while it is frozen, and /v1/status stays bounded", async () => {
    await pg.freeze();
    try {
      const response = await resolveFresh();
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toBe("database_unavailable");
      expect(await databaseState()).toBe("down");
    } finally {
      await pg.thaw();
    }
  }, 60_000);

  it("serves again once the database is back", async () => {
    let status = 0;
    for (let i = 0; i < 50 && status !== 404; i++) {
      status = (await resolveFresh()).statusCode;
      if (status !== 404) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(404);
    expect(await databaseState()).toBe("operational");
  }, 60_000);
});
