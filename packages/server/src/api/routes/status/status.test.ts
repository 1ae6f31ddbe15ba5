import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import {
  addDeadLetter,
  failingChain,
  headAt,
  NOW,
  resetIndexer,
  secondsBefore,
  unreachableDatabase,
} from "../../../../test/fixtures/routes.ts";
import { STALE_AFTER_SECONDS } from "../../../db/coverage.ts";
import type { ReplicaLagReading } from "../../../db/replica-lag.ts";
import { chainIdentity, gaps } from "../../../db/tables.ts";
import type { Database } from "../../../db/types.ts";
import { buildApp } from "../../app.ts";
import type { ChainHeadSource } from "../../chain-head.ts";
import { HEAD_STALE_AFTER_SECONDS, RPC_FAILING_AFTER_SECONDS } from "./status.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  await database?.close();
});

const RECENT = secondsBefore(NOW, 5);

/** An indexer that processed ledger 1000 five seconds ago and saw the head then. */
const caughtUp = { headLedger: 1000, headObservedAt: RECENT, processedLedger: 1000, processedAt: RECENT };

async function status(
  opts: { chain?: ChainHeadSource; now?: Date; db?: Database; env?: Record<string, string> } = {},
): Promise<{ statusCode: number; body: unknown; cacheControl: unknown }> {
  const app = await buildApp({
    config: testConfig(opts.env),
    db: opts.db ?? database,
    redis: null,
    chain: "chain" in opts ? opts.chain : headAt(1002),
    now: () => opts.now ?? NOW,
  });
  try {
    const response = await app.inject({ url: "/v1/status" });
    return {
      statusCode: response.statusCode,
      body: response.json(),
      cacheControl: response.headers["cache-control"],
    };
  } finally {
    await app.close();
  }
}

const database_ = (state: "operational" | "down") => ({ name: "Database", state });
const rpcUp = (ledger: number) => ({ name: "the service RPC", state: "operational", ledger });
const rpcDown = { name: "the service RPC", state: "down" };

describe("GET /v1/status", () => {
  beforeEach(async () => {
    await resetIndexer(database, caughtUp);
  });

  it("reports every component operational when the indexer keeps pace with a live head", async () => {
    expect(await status()).toEqual({
      statusCode: 200,
      cacheControl: "no-store",
      body: {
        ledger: 1002,
        components: [
          database_("operational"),
          rpcUp(1002),
          {
            name: "Indexer",
            state: "operational",
            ledger: 1000,
            lag: 2,
            processedAt: RECENT.toISOString(),
            deadLetters: 0,
          },
        ],
      },
    });
  });

  it("reports the RPC down and falls back to the indexer's head when the RPC fails", async () => {
    const { statusCode, body } = await status({ chain: failingChain });
    expect(statusCode).toBe(200);
    expect(body).toEqual({
      ledger: 1000,
      components: [
        database_("operational"),
        rpcDown,
        {
          name: "Indexer",
          state: "operational",
          ledger: 1000,
          lag: 0,
          processedAt: RECENT.toISOString(),
          deadLetters: 0,
        },
      ],
    });
  });

  it("reports the RPC down when none is configured", async () => {
    const { body } = await status({ chain: undefined });
    expect(body).toMatchObject({ ledger: 1000, components: [database_("operational"), rpcDown, {}] });
  });

  it("reports the database down, without a 500, when it fails its health check", async () => {
    const { statusCode, body } = await status({ db: { ...database, healthy: async () => false } });
    expect(statusCode).toBe(200);
    expect(body).toMatchObject({
      ledger: 1002,
      components: [database_("down"), rpcUp(1002), { name: "Indexer", state: "operational" }],
    });
  });

  it("reports the database down and the indexer unknown when nothing can be read", async () => {
    const { statusCode, body } = await status({ db: unreachableDatabase(database) });
    expect(statusCode).toBe(200);
    expect(body).toEqual({
      ledger: 1002,
      components: [
        database_("down"),
        rpcUp(1002),
        { name: "Indexer", state: "unknown", ledger: null, lag: null, processedAt: null, deadLetters: null },
      ],
    });
  });

  it("answers with a null ledger when neither the RPC nor the database can be read", async () => {
    const { statusCode, body } = await status({ db: unreachableDatabase(database), chain: failingChain });
    expect(statusCode).toBe(200);
    expect(body).toMatchObject({
      ledger: null,
      components: [database_("down"), rpcDown, { state: "unknown" }],
    });
  });

  it("reports a stopped indexer down once its progress is older than the staleness limit", async () => {
    const fresh = await status({ now: new Date(RECENT.getTime() + STALE_AFTER_SECONDS * 1000) });
    // Not down yet at the limit, though lagging: its head observation is as old as its progress.
    expect(fresh.body).toMatchObject({ components: [{}, {}, { name: "Indexer", state: "lagging" }] });
    const stale = await status({ now: new Date(RECENT.getTime() + (STALE_AFTER_SECONDS + 1) * 1000) });
    expect(stale.body).toEqual({
      ledger: 1002,
      components: [
        database_("operational"),
        rpcUp(1002),
        {
          name: "Indexer",
          state: "down",
          ledger: 1000,
          lag: 2,
          processedAt: RECENT.toISOString(),
          deadLetters: 0,
        },
      ],
    });
  });

  it("reports the indexer lagging more than 10 ledgers behind the head", async () => {
    expect((await status({ chain: headAt(1010) })).body).toMatchObject({
      components: [{}, {}, { state: "operational", lag: 10 }],
    });
    expect((await status({ chain: headAt(1011) })).body).toMatchObject({
      ledger: 1011,
      components: [{}, rpcUp(1011), { state: "lagging", ledger: 1000, lag: 11 }],
    });
  });

  it("reports the indexer lagging while its own view of the head is stale", async () => {
    await resetIndexer(database, {
      ...caughtUp,
      headObservedAt: secondsBefore(NOW, STALE_AFTER_SECONDS + 1),
    });
    expect((await status()).body).toMatchObject({ components: [{}, {}, { state: "lagging", lag: 2 }] });
  });

  it("never reports a ledger below the indexer's, nor a negative lag, when the RPC trails the indexer", async () => {
    expect((await status({ chain: headAt(990) })).body).toMatchObject({
      ledger: 1000,
      components: [{}, {}, { state: "operational", ledger: 1000, lag: 0 }],
    });
  });

  it("reports the indexer lagging once its head observation is older than a few ledger closes", async () => {
    // Every RPC read fails: the indexer's last head is the only one, so the lag against it means nothing.
    await resetIndexer(database, {
      ...caughtUp,
      headObservedAt: secondsBefore(NOW, HEAD_STALE_AFTER_SECONDS),
    });
    expect((await status({ chain: failingChain })).body).toMatchObject({
      components: [{}, rpcDown, { state: "operational", lag: 0 }],
    });
    await resetIndexer(database, {
      ...caughtUp,
      headObservedAt: secondsBefore(NOW, HEAD_STALE_AFTER_SECONDS + 1),
    });
    expect((await status({ chain: failingChain })).body).toMatchObject({
      ledger: 1000,
      components: [{}, rpcDown, { state: "lagging", ledger: 1000, lag: 0 }],
    });
  });

  it("reports the indexer degraded while its own RPC reads keep failing", async () => {
    await resetIndexer(database, {
      ...caughtUp,
      rpcFailingSince: secondsBefore(NOW, RPC_FAILING_AFTER_SECONDS),
    });
    expect((await status()).body).toMatchObject({ components: [{}, {}, { state: "operational" }] });
    await resetIndexer(database, {
      ...caughtUp,
      rpcFailingSince: secondsBefore(NOW, RPC_FAILING_AFTER_SECONDS + 1),
    });
    expect((await status()).body).toMatchObject({
      components: [{}, rpcUp(1002), { name: "Indexer", state: "degraded", ledger: 1000, lag: 2 }],
    });
  });

  it("reports the indexer degraded while unresolved dead letters wait, keeping pace otherwise", async () => {
    await addDeadLetter(database, "0000004294971392-0000000001");
    await addDeadLetter(database, "0000004294971392-0000000002");
    await addDeadLetter(database, "0000004294971392-0000000003", RECENT);
    expect((await status()).body).toEqual({
      ledger: 1002,
      components: [
        database_("operational"),
        rpcUp(1002),
        {
          name: "Indexer",
          state: "degraded",
          ledger: 1000,
          lag: 2,
          processedAt: RECENT.toISOString(),
          deadLetters: 2,
        },
      ],
    });
    // Falling behind is the more urgent news.
    expect((await status({ chain: headAt(1020) })).body).toMatchObject({
      components: [{}, {}, { state: "lagging", deadLetters: 2 }],
    });
  });

  it("reports the indexer degraded while a coverage gap is recorded, keeping pace otherwise", async () => {
    await resetIndexer(database, caughtUp);
    await database.db.insert(gaps).values({
      contractId: "C",
      fromLedger: 10,
      toLedger: 20,
      reason: "outside the RPC's retention window",
    });
    expect((await status()).body).toMatchObject({
      components: [{}, {}, { name: "Indexer", state: "degraded", ledger: 1000, lag: 2, deadLetters: 0 }],
    });
    await database.db.delete(gaps);
  });

  it("reports the indexer down with the reason while the writer refuses the chain", async () => {
    await resetIndexer(database, caughtUp);
    const reason =
      "the chain went backwards: this mirror has seen ledger 1000, but the RPC's latest ledger is 50";
    await database.db.insert(chainIdentity).values({ id: 1, refusedReason: reason, refusedAt: RECENT });
    try {
      expect((await status()).body).toMatchObject({
        components: [{}, {}, { name: "Indexer", state: "down", ledger: 1000, reason }],
      });
    } finally {
      await database.db.delete(chainIdentity);
    }
    expect((await status()).body).toMatchObject({ components: [{}, {}, { state: "operational" }] });
    expect(((await status()).body as { components: object[] }).components[2]).not.toHaveProperty("reason");
  });

  it("reports an indexer that never ran as unknown", async () => {
    await resetIndexer(database);
    expect((await status()).body).toEqual({
      ledger: 1002,
      components: [
        database_("operational"),
        rpcUp(1002),
        { name: "Indexer", state: "unknown", ledger: null, lag: null, processedAt: null, deadLetters: 0 },
      ],
    });
    // The row `init()` writes before the first pass holds no progress either.
    await resetIndexer(database, {});
    expect((await status({ chain: failingChain })).body).toEqual({
      ledger: null,
      components: [
        database_("operational"),
        rpcDown,
        { name: "Indexer", state: "unknown", ledger: null, lag: null, processedAt: null, deadLetters: 0 },
      ],
    });
  });

  it("allows cross-origin reads", async () => {
    const app = await buildApp({ config: testConfig(), db: database, redis: null, chain: headAt(1002) });
    const response = await app.inject({ url: "/v1/status", headers: { origin: "https://wallet.example" } });
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    await app.close();
  });
});

describe("the Read replica component of GET /v1/status", () => {
  beforeEach(async () => {
    await resetIndexer(database, caughtUp);
  });

  const REPLAYED_AT = new Date("2026-01-01T00:00:00.000Z");
  /** The database with a read replica whose measurement is `reading` (or fails with it). */
  const withReplica = (reading: ReplicaLagReading | Error): Database => ({
    ...database,
    replicaLag: async () => {
      if (reading instanceof Error) throw reading;
      return reading;
    },
  });
  const replicaOf = async (reading: ReplicaLagReading | Error, env: Record<string, string> = {}) => {
    const { statusCode, body } = await status({ db: withReplica(reading), env });
    expect(statusCode).toBe(200);
    const components = (body as { components: { name: string }[] }).components;
    // After the Indexer, before the watchers.
    expect(components.map((c) => c.name)).toEqual(["Database", "the service RPC", "Indexer", "Read replica"]);
    return components[3];
  };
  const standby = (behindBytes: number | null, replayAgeSeconds: number | null): ReplicaLagReading => ({
    inRecovery: true,
    behindBytes,
    replayAgeSeconds,
    replayedAt: replayAgeSeconds === null ? null : REPLAYED_AT,
  });

  it("is absent without a separate read replica", async () => {
    const { body } = await status();
    expect((body as { components: { name: string }[] }).components.map((c) => c.name)).not.toContain(
      "Read replica",
    );
  });

  it("reports a caught-up replica 0 s behind, however long ago it last replayed a transaction", async () => {
    expect(await replicaOf(standby(0, 3600))).toEqual({
      name: "Read replica",
      state: "operational",
      lagSeconds: 0,
      lagBytes: 0,
      replayedAt: REPLAYED_AT.toISOString(),
    });
  });

  it("reports a replica behind the writer by the age of the last transaction it replayed", async () => {
    expect(await replicaOf(standby(4096, 2.0456))).toEqual({
      name: "Read replica",
      state: "operational",
      lagSeconds: 2.046,
      lagBytes: 4096,
      replayedAt: REPLAYED_AT.toISOString(),
    });
  });

  it("reports it degraded past READ_REPLICA_MAX_LAG_SECONDS (default 30)", async () => {
    expect(await replicaOf(standby(100, 30))).toMatchObject({ state: "operational", lagSeconds: 30 });
    expect(await replicaOf(standby(100, 30.5))).toMatchObject({ state: "degraded", lagSeconds: 30.5 });
    expect(await replicaOf(standby(100, 30.5), { READ_REPLICA_MAX_LAG_SECONDS: "60" })).toMatchObject({
      state: "operational",
    });
    expect(await replicaOf(standby(100, 6), { READ_REPLICA_MAX_LAG_SECONDS: "5" })).toMatchObject({
      state: "degraded",
      lagSeconds: 6,
    });
  });

  it("reports it down when it does not answer, while the rest of the answer stands", async () => {
    expect(await replicaOf(new Error("connect ECONNREFUSED"))).toEqual({
      name: "Read replica",
      state: "down",
      lagSeconds: null,
      lagBytes: null,
      replayedAt: null,
    });
  });

  it("reports the lag unknown when it cannot be measured", async () => {
    const unknown = { name: "Read replica", state: "unknown", lagSeconds: null };
    // The writer did not answer: no position to compare with.
    expect(await replicaOf(standby(null, 1))).toMatchObject({ ...unknown, lagBytes: null });
    // Behind, and no transaction replayed since the standby started.
    expect(await replicaOf(standby(512, null))).toMatchObject({
      ...unknown,
      lagBytes: 512,
      replayedAt: null,
    });
    // Not a standby replaying WAL (a primary, a logical replica): its WAL positions say nothing.
    expect(
      await replicaOf({ inRecovery: false, behindBytes: 0, replayAgeSeconds: null, replayedAt: null }),
    ).toMatchObject({ ...unknown, lagBytes: null });
  });
});
