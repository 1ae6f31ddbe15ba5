// How far the indexer has got, as both account watchers read it: a verdict or a billing period that depends on
// registry state waits until the indexer has applied the ledgers it depends on, never a live guess.
import { indexerState } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

/** The last ledger the indexer has fully applied; null before its first batch. */
export async function processedLedger(db: Db): Promise<number | null> {
  const [row] = await db.select({ ledger: indexerState.processedLedger }).from(indexerState);
  return row?.ledger ?? null;
}
