// What the indexer keeps in memory between pages: the tracked contracts (which stream follows each, which
// namespace it serves) and the namespace labels. apply-batch.ts moves it on only after a page commits.
import { namespaces, trackedContracts } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import type { TrackedRow } from "./working-set.ts";

export interface IndexerCache {
  contracts: Map<string, TrackedRow>;
  labels: Map<string, string>;
  /** Verified discovery data for hash-only legacy allocations (LEGACY_LABELS_FILE), node → label. */
  legacyLabels?: ReadonlyMap<string, string>;
}

/** Fills `cache` (a fresh one by default) with the tracked contracts and namespace labels the database holds. */
export async function loadIndexerCache(
  db: Db,
  cache: IndexerCache = { contracts: new Map(), labels: new Map() },
): Promise<IndexerCache> {
  for (const row of await db.select().from(trackedContracts)) cache.contracts.set(row.contractId, row);
  for (const ns of await db.select({ node: namespaces.node, label: namespaces.label }).from(namespaces)) {
    cache.labels.set(ns.node, ns.label);
  }
  return cache;
}
