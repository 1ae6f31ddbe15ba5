// Stale-if-error on /v1/resolve (docs/api.md "Stale-if-error"): a name resolved before the database went away keeps
// answering 200 with the answer it had — its ledger unchanged — after that answer lapsed from the cache, while a
// name never resolved answers 503 database_unavailable; once the database is back, answers come from it again.
import { nameNode, namespaceNode } from "@namereg/protocol";
import { Keypair } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import { type PrivatePostgres, startPrivatePostgres } from "../../test/fixtures/private-postgres.ts";
import { openDatabase } from "../db/database.ts";
import { names, namespaces } from "../db/tables.ts";
import type { Database } from "../db/types.ts";
import { type App, buildApp } from "./app.ts";

const HOLDER = Keypair.random().publicKey();
const NEXT_HOLDER = Keypair.random().publicKey();
/** A found answer's lifetime in the cache: short, so the test can outlive it. */
const TTL_MS = 300;

describe("/v1/resolve while the database is away", () => {
  let pg: PrivatePostgres;
  let database: Database;
  let app: App;
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    database = await openDatabase({ url: pg.url, statementTimeoutMs: 1000 });
    await database.migrate();
    await database.db.insert(namespaces).values({
      node: namespaceNode("acme"),
      label: "acme",
      owner: HOLDER,
      registrar: HOLDER,
      method: "auction",
      allocatedLedger: 3,
      txHash: "aa".repeat(32),
    });
    const name = (label: string, ledger: number) => ({
      node: nameNode(label, "acme"),
      namespace: "acme",
      label,
      holder: HOLDER,
      address: HOLDER,
      expiresAt: null,
      generation: 1n,
      active: true,
      issuedLedger: ledger,
      txHash: "bb".repeat(32),
      updatedLedger: ledger,
    });
    await database.db.insert(names).values([name("alice", 7), name("bob", 8)]);
    app = await buildApp({
      config: testConfig({ DATABASE_URL: pg.url }),
      db: database,
      redis: null,
      resolveCache: { positiveTtlMs: TTL_MS, jitter: () => 0 },
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await pg?.stop();
  });

  const resolve = (label: string) => app.inject({ url: `/v1/resolve/acme/${label}` });
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("serves a name resolved before the outage with its last answer, 503 for one never resolved", async () => {
    const before = await resolve("alice");
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ name: "alice.acme", account: HOLDER, ledger: 7 });
    await pg.halt();
    try {
      await pause(TTL_MS * 2);
      for (let i = 0; i < 3; i++) {
        const during = await resolve("alice");
        expect(during.statusCode).toBe(200);
        expect(during.body).toBe(before.body);
      }
      // A batch of names with answers is answered so too; one name without, and it is 503 as a whole.
      const batch = (names: string[]) =>
        app.inject({ method: "POST", url: "/v1/resolve", payload: { names } });
      const cached = await batch(["alice.acme"]);
      expect(cached.statusCode).toBe(200);
      expect(cached.body).toBe(`{"results":[${before.body}]}`);
      expect((await batch(["alice.acme", "bob.acme"])).statusCode).toBe(503);
      const never = await resolve("bob");
      expect(never.statusCode).toBe(503);
      expect(never.json().error).toBe("database_unavailable");
      // Counted apart from hits and misses, so an operator sees how much was answered stale.
      // The counter catches up with the cache's plain numbers when scraped, after it was written out: the second
      // scrape shows what the first caught up.
      await app.inject({ url: "/metrics" });
      const metrics = (await app.inject({ url: "/metrics" })).body;
      expect(metrics).toContain('namereg_resolve_cache_lookups_total{result="stale"} 5');
    } finally {
      await pg.start();
    }
  }, 60_000);

  it("answers from the mirror again once the database is back", async () => {
    await database.db
      .update(names)
      .set({ holder: NEXT_HOLDER, address: NEXT_HOLDER, issuedLedger: 9 })
      .where(eq(names.label, "alice"));
    let answer = await resolve("alice");
    for (let i = 0; i < 50 && answer.json().ledger !== 9; i++) {
      await pause(200);
      answer = await resolve("alice");
    }
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ account: NEXT_HOLDER, ledger: 9 });
  }, 60_000);
});
