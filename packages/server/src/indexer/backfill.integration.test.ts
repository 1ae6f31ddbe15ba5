// `backfill` over a demo devnet whose retention was shortened while the indexer back-filled: the indexer records
// gaps; a backfill refuses while the RPC still lacks the ledgers, and once the retention is back fills every gap,
// so that the archive equals that of an uninterrupted run and coverage can be complete. On both databases.
import { type NamingDevnet, startNamingDevnet } from "@namereg/devnet";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_DATABASE_KINDS, type TestDatabase } from "../../test/fixtures/database.ts";
import { indexerFor, runUntilIdle } from "../../test/fixtures/demo.ts";
import { ContractReader } from "../chain/contract-reader.ts";
import { RpcClient } from "../chain/rpc-client.ts";
import { coverageOf, readIndexerSnapshot } from "../db/coverage.ts";
import { events, gaps } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { backfill } from "./backfill.ts";

/** The archive without ingestion times, in id order. */
async function archive(db: Db) {
  const rows = await db.select().from(events).orderBy(asc(events.id));
  return rows.map(({ ingestedAt: _, ...rest }) => rest);
}

describe.each(TEST_DATABASE_KINDS)("backfill on %s", (kind) => {
  let devnet: NamingDevnet;
  let full: TestDatabase;
  let cut: TestDatabase;
  beforeAll(async () => {
    devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
    full = await createTestDatabase(kind);
    const uninterrupted = indexerFor(devnet, full.db);
    await uninterrupted.init();
    await runUntilIdle(uninterrupted);
  }, 120_000);
  afterAll(async () => {
    await cut?.close();
    await full?.close();
    await devnet?.stop();
  });

  const options = (db: Db) => ({
    db,
    rpc: new RpcClient(devnet.rpcUrl, { retries: 1, backoffMs: 10 }),
    reader: new ContractReader(devnet.rpcUrl, devnet.networkPassphrase),
    registryId: devnet.contracts.registry,
  });

  it("refuses while the RPC lacks the ledgers, then fills every gap: same archive, coverage complete", async () => {
    devnet.setFaults({ retentionLedgers: 10 });
    cut = await createTestDatabase(kind);
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
});
