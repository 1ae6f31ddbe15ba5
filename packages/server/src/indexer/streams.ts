// The stream layout: which contracts each stream follows (at most 25, one getEvents request), the first stream
// of the configured core contracts, and joining streams that stand at the same place at the head, so a contract
// discovered mid-stream stops costing its own request once its catch-up stream has caught up.
import { asc, eq, inArray } from "drizzle-orm";
import { streams, trackedContracts } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import type { IndexerCache } from "./cache.ts";
import { closesLedger, MAX_CONTRACTS_PER_STREAM } from "./fetch-batch.ts";

/** The contracts a stream follows, from the in-memory view. */
export function contractsOf(cache: IndexerCache, streamId: number): string[] {
  return [...cache.contracts.values()].filter((c) => c.streamId === streamId).map((c) => c.contractId);
}

/** Tracks the contracts the database does not know yet, all on one new stream from the earliest start. */
export async function trackNew(
  db: Db,
  contracts: readonly { role: string; contractId: string; startLedger: number }[],
): Promise<void> {
  const tracked = new Set(
    (await db.select({ id: trackedContracts.contractId }).from(trackedContracts)).map((r) => r.id),
  );
  const missing = contracts.filter((c) => !tracked.has(c.contractId));
  if (missing.length === 0) return;
  await db.transaction(async (tx) => {
    const start = Math.min(...missing.map((c) => c.startLedger));
    const [s] = await tx
      .insert(streams)
      .values({ nextLedger: start, cursor: null })
      .returning({ id: streams.id });
    if (s === undefined) throw new Error("could not create a stream");
    await tx.insert(trackedContracts).values(
      missing.map((c) => ({
        contractId: c.contractId,
        role: c.role,
        startLedger: c.startLedger,
        streamId: s.id,
      })),
    );
  });
}

/**
 * Streams standing at the same place at the head are joined, up to the per-request contract limit; each join is
 * one transaction that `fence` first proves this process may write. True when any stream was joined.
 */
export async function mergeAtHead(
  db: Db,
  cache: IndexerCache,
  head: number,
  fence: (tx: Db) => Promise<void>,
): Promise<boolean> {
  const rows = (await db.select().from(streams).orderBy(asc(streams.id))).filter(
    (s) => s.nextLedger > head && (s.cursor === null || closesLedger(s.cursor)),
  );
  let merged = false;
  for (let i = 0; i < rows.length; i++) {
    const into = rows[i];
    if (into === undefined) continue;
    for (let j = i + 1; j < rows.length; j++) {
      const from = rows[j];
      if (from === undefined || from.nextLedger !== into.nextLedger) continue;
      const ids = contractsOf(cache, from.id);
      if (contractsOf(cache, into.id).length + ids.length > MAX_CONTRACTS_PER_STREAM) continue;
      await db.transaction(async (tx) => {
        await fence(tx);
        if (ids.length > 0) {
          await tx
            .update(trackedContracts)
            .set({ streamId: into.id })
            .where(inArray(trackedContracts.contractId, ids));
        }
        await tx.delete(streams).where(eq(streams.id, from.id));
      });
      for (const id of ids) {
        const c = cache.contracts.get(id);
        if (c !== undefined) cache.contracts.set(id, { ...c, streamId: into.id });
      }
      rows[j] = undefined as never;
      merged = true;
    }
  }
  return merged;
}
