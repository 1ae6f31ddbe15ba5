// What the indexer records about itself for /v1/status and /v1/coverage (db/coverage.ts reads it): the RPC's
// head and when it was seen to move, since when RPC reads fail, and the ledger every stream has passed.
import { eq, sql } from "drizzle-orm";
import { indexerState, streams } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

export class IndexerStatus {
  private readonly db: Db;
  private readonly now: () => Date;
  private lastHead: number | null = null;
  private rpcFailing = false;

  constructor(db: Db, now: () => Date) {
    this.db = db;
    this.now = now;
  }

  /** The status row exists before anything updates it. */
  async ensure(): Promise<void> {
    await this.db.insert(indexerState).values({ id: 1 }).onConflictDoNothing();
  }

  async observeHead(sequence: number): Promise<void> {
    // Observation time moves only when the head does: a head that stops advancing must turn stale.
    const set: Partial<typeof indexerState.$inferInsert> = { rpcFailingSince: null };
    if (this.lastHead !== sequence) {
      set.headLedger = sequence;
      set.headObservedAt = this.now();
    } else if (!this.rpcFailing) return;
    this.lastHead = sequence;
    this.rpcFailing = false;
    await this.db.update(indexerState).set(set).where(eq(indexerState.id, 1));
  }

  /** The status route reports an indexer whose RPC reads keep failing; the first failure of a run is kept. */
  async recordRpcFailure(): Promise<void> {
    if (this.rpcFailing) return;
    await this.db.update(indexerState).set({ rpcFailingSince: this.now() }).where(eq(indexerState.id, 1));
    this.rpcFailing = true;
  }

  async recordProgress(progressed: boolean): Promise<void> {
    const [row] = await this.db.select({ min: sql<number | null>`min(${streams.nextLedger})` }).from(streams);
    const processed = row?.min === null || row?.min === undefined ? null : Number(row.min) - 1;
    const set: Partial<typeof indexerState.$inferInsert> = { processedLedger: processed };
    if (progressed) set.processedAt = this.now();
    await this.db.update(indexerState).set(set).where(eq(indexerState.id, 1));
  }
}
