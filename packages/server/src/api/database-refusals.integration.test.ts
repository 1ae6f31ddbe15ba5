// PostgreSQL refusing new connections — the database closed to connections (55000), a server not accepting them
// yet (57P03), a role or the server out of connection slots (53300) — is the database being unavailable, not a
// fault: every route answers as it does for a database that is down, 503 database_unavailable with Retry-After
// where it needs the database, and never 500. Each state is a real refusal by a real server.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import {
  type PrivatePostgres,
  startPrivatePostgres,
  startPrivateStandby,
} from "../../test/fixtures/private-postgres.ts";
import { admin, postgresUrlOf } from "../../test/fixtures/templates.ts";
import { openDatabase } from "../db/database.ts";
import type { Database } from "../db/types.ts";
import { type App, buildApp } from "./app.ts";

const HOLDER = "GDV4R6JWRHCIRQ6LXTNNLFNYSQ3WJ5LBR7NH2AE2C7S5DNUDML6INS2U";

/** Routes that read the mirror: each must answer 503 database_unavailable with Retry-After. */
const DATABASE_ROUTES = [
  "/v1/stats",
  "/v1/events",
  "/v1/coverage",
  "/v1/namespaces",
  "/v1/namespaces/acme",
  "/v1/namespaces/acme/names",
  "/v1/resolve/acme/refused",
  "/v1/names/acme/refused",
  "/v1/names/acme/refused/history",
  "/v1/records/acme/refused",
  `/v1/names/by-holder/${HOLDER}`,
  `/v1/reverse/${HOLDER}`,
  "/v1/subname-policy/acme",
  "/v1/subnames/acme/refused",
  "/v1/chain-policy/acme",
  "/v1/lookup?q=refused",
  "/v1/showcase",
  "/v1/directory/namespaces",
  `/v1/directory/reverse/${HOLDER}`,
  "/v1/allocations",
  "/v1/stream",
];

/** Routes that may not need the database; whatever they answer, it is not 500. */
const OTHER_ROUTES = [
  "/health",
  "/v1/status",
  "/v1/network",
  "/v1/ledger/head",
  "/.well-known/stellar.toml",
  "/v1/market/listings",
  "/federation?q=refused*acme.example&type=name",
];

async function expectRefusalsAnswered(app: App) {
  for (const url of DATABASE_ROUTES) {
    const response = await app.inject({ url, headers: { "last-event-id": "0" } });
    expect({ url, status: response.statusCode, body: response.json() }).toEqual({
      url,
      status: 503,
      body: {
        error: "database_unavailable",
        detail: "The database is not answering right now; nothing was changed. Retry shortly.",
      },
    });
    expect(response.headers["retry-after"], url).toBe("5");
  }
  for (const url of OTHER_ROUTES) {
    const response = await app.inject({ url });
    expect({ url, status: response.statusCode }).not.toEqual({ url, status: 500 });
  }
  const status = (await app.inject({ url: "/v1/status" })).json();
  expect(status.components.find((c: { name: string }) => c.name === "Database")?.state).toBe("down");
}

/** An app over `database`, which it closes with itself. */
async function appOver(database: Database, url: string): Promise<App> {
  const app = await buildApp({ config: testConfig({ DATABASE_URL: url }), db: database, redis: null });
  app.addHook("onClose", () => database.close());
  return app;
}

describe("PostgreSQL refusing connections", () => {
  const name = `avail_refusals_${process.pid}_${randomBytes(4).toString("hex")}`;
  const role = `${name}_role`;
  const url = postgresUrlOf(name);
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    const database = await openDatabase({ url });
    await database.migrate();
    await database.close();
    // Superusers are exempt from connection limits: the limited role is an ordinary one.
    await admin(`CREATE ROLE ${pg.escapeIdentifier(role)} LOGIN CONNECTION LIMIT 0`);
  }, 60_000);
  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await admin(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(role)}`);
  });

  it("answers 503 while the database does not allow connections (55000)", async () => {
    const database = await openDatabase({ url, statementTimeoutMs: 1000 });
    const app = await appOver(database, url);
    try {
      expect((await app.inject({ url: "/v1/resolve/acme/before" })).statusCode).toBe(404);
      await admin(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS false`);
      // Connections already open are not affected by the switch: end them, so the pool must open new ones.
      await admin(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${pg.escapeLiteral(name)}`,
      );
      const refused = await new pg.Client({ connectionString: url }).connect().catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: "55000" });
      // The pool may still hold a client whose backend was just ended; the first query on it drops it.
      await app.inject({ url: "/v1/stats" });
      await expectRefusalsAnswered(app);
    } finally {
      await admin(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS true`);
      await app.close();
    }
  }, 60_000);

  it("answers 503 while the role has no connection slot left (53300)", async () => {
    const limited = new URL(url);
    limited.username = role;
    const refused = await new pg.Client({ connectionString: limited.toString() })
      .connect()
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "53300" });
    const database = await openDatabase({ url: limited.toString(), statementTimeoutMs: 1000 });
    const app = await appOver(database, limited.toString());
    try {
      await expectRefusalsAnswered(app);
    } finally {
      await app.close();
    }
  }, 60_000);

  describe("a server not accepting connections (57P03)", () => {
    let primary: PrivatePostgres;
    let standby: PrivatePostgres;
    beforeAll(async () => {
      primary = await startPrivatePostgres();
      const database = await openDatabase({ url: primary.url });
      await database.migrate();
      await database.close();
      // A standby without hot standby replays the primary but lets nobody in: "the database system is not
      // accepting connections", as a server starting up or shutting down says.
      standby = await startPrivateStandby(primary, { settings: { hot_standby: "off" } });
    }, 120_000);
    afterAll(async () => {
      await standby?.stop();
      await primary?.stop();
    });

    it("answers 503 for every read the replica refuses", async () => {
      const refused = await new pg.Client({ connectionString: standby.url })
        .connect()
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: "57P03" });
      const database = await openDatabase({ url: standby.url, statementTimeoutMs: 1000 });
      const app = await appOver(database, standby.url);
      try {
        await expectRefusalsAnswered(app);
      } finally {
        await app.close();
      }
    }, 60_000);
  });
});
