// `backfill` over a demo devnet whose retention was shortened while the indexer back-filled: the indexer records
// gaps; a backfill refuses while the RPC still lacks the ledgers, and once the retention is back fills every gap,
// so that the archive equals that of an uninterrupted run and coverage can be complete. On both databases.
import { type NamingDevnet, startNamingDevnet } from "@namereg/devnet";
import { and, asc, count, eq, gte, lte } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  emptyTestDatabase,
  TEST_DATABASE_KINDS,
  type TestDatabase,
} from "../../test/fixtures/database.ts";
import { indexerFor, runUntilIdle } from "../../test/fixtures/demo.ts";
import { ContractReader } from "../chain/contract-reader.ts";
import { RpcClient } from "../chain/rpc-client.ts";
import { coverageOf, readIndexerSnapshot } from "../db/coverage.ts";
import { events, gaps, streams, trackedContracts } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { backfill } from "./backfill.ts";

/** `db` whose transactions after the first `commits` fail, as if the process died right after that commit. */
function crashingAfter(db: Db, commits: number): Db {
  let left = commits;
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "transaction") {
        return (...args: Parameters<Db["transaction"]>) =>
          left-- > 0 ? target.transaction(...args) : Promise.reject(new Error("simulated crash"));
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Recorded gaps over which the archive holds events of the gap's contract: coverage that lies. */
async function gapsOverArchivedEvents(db: Db): Promise<number> {
  let lying = 0;
  for (const g of await db.select().from(gaps)) {
    const [row] = await db
      .select({ n: count() })
      .from(events)
      .where(
        and(
          eq(events.contractId, g.contractId),
          gte(events.ledger, g.fromLedger),
          lte(events.ledger, g.toLedger),
        ),
      );
    if ((row?.n ?? 0) > 0) lying++;
  }
  return lying;
}

/**
 * Events of the uninterrupted archive that `db` lacks although it tracks their contract, has passed their ledger
 * and records no gap over them: coverage that hides a loss. (A contract no page has discovered yet is unknown,
 * not hidden.)
 */
async function missingOutsideGaps(db: Db, uninterrupted: Db): Promise<string[]> {
  const have = new Set((await db.select({ id: events.id }).from(events)).map((e) => e.id));
  const recorded = await db.select().from(gaps);
  const position = new Map(
    (
      await db
        .select({ contractId: trackedContracts.contractId, nextLedger: streams.nextLedger })
        .from(trackedContracts)
        .innerJoin(streams, eq(streams.id, trackedContracts.streamId))
    ).map((t) => [t.contractId, t.nextLedger]),
  );
  return (await uninterrupted.select().from(events))
    .filter((e) => !have.has(e.id) && e.ledger < (position.get(e.contractId) ?? 0))
    .filter(
      (e) =>
        !recorded.some(
          (g) => g.contractId === e.contractId && g.fromLedger <= e.ledger && e.ledger <= g.toLedger,
        ),
    )
    .map((e) => `${e.id} ${e.type} of ${e.contractId}`);
}

/** The archive without ingestion times, in id order. */
async function archive(db: Db) {
  const rows = await db.select().from(events).orderBy(asc(events.id));
  return rows.map(({ ingestedAt: _, ...rest }) => rest);
}

// One demo devnet for both kinds: the tests only read it, and put the retention they shorten back.
let devnet: NamingDevnet;
beforeAll(async () => {
  devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
});
afterEach(() => {
  devnet.setFaults({ retentionLedgers: null });
});
afterAll(async () => {
  await devnet?.stop();
});

describe.each(TEST_DATABASE_KINDS)("backfill on %s", (kind) => {
  let full: TestDatabase;
  // The database the tests back-fill, emptied before each (a new PGlite costs more than emptying one).
  let cut: TestDatabase;
  beforeAll(async () => {
    full = await createTestDatabase(kind);
    const uninterrupted = indexerFor(devnet, full.db);
    await uninterrupted.init();
    await runUntilIdle(uninterrupted);
    cut = await createTestDatabase(kind);
  }, 120_000);
  beforeEach(async () => {
    await emptyTestDatabase(cut);
  });
  afterAll(async () => {
    await cut?.close();
    await full?.close();
  });

  const options = (db: Db) => ({
    db,
    rpc: new RpcClient(devnet.rpcUrl, { retries: 1, backoffMs: 10 }),
    reader: new ContractReader(devnet.rpcUrl, devnet.networkPassphrase),
    registryId: devnet.contracts.registry,
  });

  it("refuses while the RPC lacks the ledgers, then fills every gap: same archive, coverage complete", async () => {
    devnet.setFaults({ retentionLedgers: 10 });
    const indexer = indexerFor(devnet, cut.db);
    await indexer.init();
    await runUntilIdle(indexer);
    const recorded = await cut.db.select().from(gaps);
    expect(recorded.length).toBeGreaterThanOrEqual(4);
    expect((await archive(cut.db)).length).toBeLessThan((await archive(full.db)).length);

    const refused = await backfill(options(cut.db));
    expect(refused.reports.length).toBeGreaterThan(0);
    expect(refused.reports.every((r) => !r.filled)).toBe(true);
    expect(refused.reports[0]?.detail).toMatch(
      /^the RPC keeps ledgers from \d+ only; the gap starts at \d+$/,
    );
    expect(refused.remaining).toBe(recorded.length);

    devnet.setFaults({ retentionLedgers: null });
    const filled = await backfill(options(cut.db));
    expect(filled.reports.length).toBeGreaterThan(0);
    expect(filled.reports.every((r) => r.filled)).toBe(true);
    expect(filled.remaining).toBe(0);
    await runUntilIdle(indexer);
    expect(await archive(cut.db)).toEqual(await archive(full.db));
    const snapshot = await readIndexerSnapshot(cut.db);
    expect(snapshot.gaps).toEqual([]);
    expect(coverageOf(snapshot, new Date()).complete).toBe(true);

    // Idempotent: nothing left to do, nothing added.
    const again = await backfill(options(cut.db));
    expect(again).toEqual({ reports: [], remaining: 0 });
    expect(await archive(cut.db)).toEqual(await archive(full.db));
  }, 120_000);

  it("a crash right after a filled page commits leaves coverage true: no gap over archived events, no loss outside a gap", async () => {
    const crashed = cut;
    try {
      devnet.setFaults({ retentionLedgers: 10 });
      const indexer = indexerFor(devnet, crashed.db);
      await indexer.init();
      await runUntilIdle(indexer);
      devnet.setFaults({ retentionLedgers: null });
      const recorded = await crashed.db.select().from(gaps);
      const before = (await archive(crashed.db)).length;
      expect(recorded.length).toBeGreaterThanOrEqual(4);
      expect(await gapsOverArchivedEvents(crashed.db)).toBe(0);
      expect(await missingOutsideGaps(crashed.db, full.db)).toEqual([]);

      // The process dies right after the first page of the back-fill commits.
      await expect(backfill(options(crashingAfter(crashed.db, 1)))).rejects.toThrow("simulated crash");
      expect((await archive(crashed.db)).length).toBeGreaterThan(before);
      expect(await gapsOverArchivedEvents(crashed.db)).toBe(0);
      expect(await missingOutsideGaps(crashed.db, full.db)).toEqual([]);

      // The next run fills the rest and ends where an uninterrupted one does.
      const rest = await backfill(options(crashed.db));
      expect(rest.remaining).toBe(0);
      await runUntilIdle(indexer);
      expect(await archive(crashed.db)).toEqual(await archive(full.db));
    } finally {
      devnet.setFaults({ retentionLedgers: null });
    }
  }, 120_000);
});
