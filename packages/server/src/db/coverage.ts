// Coverage: the indexer's own report of what the archive holds (docs/api.md "GET /v1/coverage"). It is never
// complete over a gap, and never complete when progress or the head observation is older than 120 s: an
// indexer that stopped, or a head that stopped advancing, must not keep claiming a complete mirror.
import { asc, count, isNull } from "drizzle-orm";
import { chainIdentity, deadLetters, gaps, indexerState } from "./tables.ts";
import type { Db } from "./types.ts";

export const STALE_AFTER_SECONDS = 120;

export interface Gap {
  contractId: string;
  fromLedger: number;
  toLedger: number;
  reason: string;
}

export interface IndexerSnapshot {
  headLedger: number | null;
  headObservedAt: Date | null;
  processedLedger: number | null;
  processedAt: Date | null;
  /** Since when the indexer's own RPC head reads have kept failing; null (or absent) while they succeed. */
  rpcFailingSince?: Date | null;
  gaps: Gap[];
  deadLetters: number;
  /** Why the writer refuses the chain it is pointed at (indexer/chain-identity.ts); null (or absent) while it does not. */
  chainRefusal?: string | null;
}

export interface Coverage {
  source: "indexed";
  complete: boolean;
  processedLedger: number | null;
  headLedger: number | null;
  processedAt: string | null;
  headObservedAt: string | null;
  gaps: Gap[];
}

export function isFresh(at: Date | null, now: Date, staleAfterSeconds = STALE_AFTER_SECONDS): boolean {
  return at !== null && now.getTime() - at.getTime() <= staleAfterSeconds * 1000;
}

export function coverageOf(s: IndexerSnapshot, now: Date): Coverage {
  const complete =
    s.gaps.length === 0 &&
    s.processedLedger !== null &&
    s.headLedger !== null &&
    isFresh(s.processedAt, now) &&
    isFresh(s.headObservedAt, now);
  return {
    source: "indexed",
    complete,
    processedLedger: s.processedLedger,
    headLedger: s.headLedger,
    processedAt: s.processedAt?.toISOString() ?? null,
    headObservedAt: s.headObservedAt?.toISOString() ?? null,
    gaps: s.gaps,
  };
}

export async function readIndexerSnapshot(db: Db): Promise<IndexerSnapshot> {
  const [state] = await db.select().from(indexerState).limit(1);
  const gapRows = await db
    .select({
      contractId: gaps.contractId,
      fromLedger: gaps.fromLedger,
      toLedger: gaps.toLedger,
      reason: gaps.reason,
    })
    .from(gaps)
    .orderBy(asc(gaps.fromLedger), asc(gaps.contractId));
  const [letters] = await db.select({ n: count() }).from(deadLetters).where(isNull(deadLetters.resolvedAt));
  const [identity] = await db.select({ refused: chainIdentity.refusedReason }).from(chainIdentity).limit(1);
  return {
    headLedger: state?.headLedger ?? null,
    headObservedAt: state?.headObservedAt ?? null,
    processedLedger: state?.processedLedger ?? null,
    processedAt: state?.processedAt ?? null,
    rpcFailingSince: state?.rpcFailingSince ?? null,
    gaps: gapRows,
    deadLetters: Number(letters?.n ?? 0),
    chainRefusal: identity?.refused ?? null,
  };
}
