// Coverage gaps: the ledger ranges of a contract the mirror does not hold (docs/operations.md). The live loop
// records one when the RPC's retention has moved past a stream's position; a back-fill page cuts the range it
// filled out of the gaps it covers, and opens one for each contract it discovers inside that range, inside the
// page's transaction (apply-batch.ts).
import { and, eq } from "drizzle-orm";
import { gaps, streams } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

export const RETENTION_GAP = "outside the RPC's retention window";

export interface RecordedGap {
  contractId: string;
  fromLedger: number;
  toLedger: number;
  reason: string;
}

/**
 * Records [fromLedger, toLedger] as a retention gap of every contract the stream follows and moves the stream
 * past it, in one transaction that `fence` first proves this process may write.
 */
export async function recordRetentionGap(
  db: Db,
  fence: (tx: Db) => Promise<void>,
  stream: { id: number; contractIds: readonly string[] },
  fromLedger: number,
  toLedger: number,
  now: Date,
): Promise<RecordedGap[]> {
  const reason = RETENTION_GAP;
  await db.transaction(async (tx) => {
    await fence(tx);
    // A retention window sliding during a back-fill cuts one step at a time: extend the contract's adjacent
    // gap instead of adding a row per step.
    const fresh: string[] = [];
    for (const contractId of stream.contractIds) {
      const extended = await tx
        .update(gaps)
        .set({ toLedger })
        .where(
          and(eq(gaps.contractId, contractId), eq(gaps.toLedger, fromLedger - 1), eq(gaps.reason, reason)),
        )
        .returning({ id: gaps.id });
      if (extended.length === 0) fresh.push(contractId);
    }
    if (fresh.length > 0) {
      await tx.insert(gaps).values(fresh.map((contractId) => ({ contractId, fromLedger, toLedger, reason })));
    }
    await tx
      .update(streams)
      .set({ nextLedger: toLedger + 1, cursor: null, updatedAt: now })
      .where(eq(streams.id, stream.id));
  });
  return stream.contractIds.map((contractId) => ({ contractId, fromLedger, toLedger, reason }));
}

export interface OpenedGap {
  id: number;
  contractId: string;
  fromLedger: number;
}

/**
 * What a back-fill page of [from, to] does to coverage, in its transaction: the range leaves the gap rows it fills,
 * and each contract the page discovered inside the range gets a gap from its first ledger to `to` (same reason),
 * cut when its own fill commits. Returns those new gaps.
 */
export async function recordFill(
  tx: Db,
  fill: { from: number; to: number; gapIds: readonly number[] },
  discoveredInside: readonly { contractId: string; startLedger: number }[],
): Promise<OpenedGap[]> {
  let reason = RETENTION_GAP;
  for (const id of fill.gapIds) reason = (await cutGap(tx, id, fill.from, fill.to)) ?? reason;
  if (discoveredInside.length === 0) return [];
  return tx
    .insert(gaps)
    .values(
      discoveredInside.map((t) => ({
        contractId: t.contractId,
        fromLedger: t.startLedger,
        toLedger: fill.to,
        reason,
      })),
    )
    .returning({ id: gaps.id, contractId: gaps.contractId, fromLedger: gaps.fromLedger });
}

/**
 * Removes [from, to] from a gap row: the row goes, and what lies outside the range stays recorded. Returns the
 * gap's reason (undefined when the row is gone already).
 */
async function cutGap(tx: Db, id: number, from: number, to: number): Promise<string | undefined> {
  const [g] = await tx.delete(gaps).where(eq(gaps.id, id)).returning();
  if (g === undefined) return undefined;
  const rest = [
    { fromLedger: g.fromLedger, toLedger: from - 1 },
    { fromLedger: to + 1, toLedger: g.toLedger },
  ].filter((r) => r.fromLedger <= r.toLedger);
  if (rest.length > 0) {
    await tx.insert(gaps).values(rest.map((r) => ({ ...r, contractId: g.contractId, reason: g.reason })));
  }
  return g.reason;
}
