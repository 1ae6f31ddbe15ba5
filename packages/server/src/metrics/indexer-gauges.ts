// The indexer's figures and the pool's, read from the database at scrape time (the numbers /v1/status reports),
// for every process that serves /metrics: an API replica, `namereg index` on METRICS_PORT.
import type { Registry } from "prom-client";
import { readIndexerSnapshot } from "../db/coverage.ts";
import type { Database } from "../db/types.ts";
import { cachedRead, scrapedGauge } from "./scraped-gauge.ts";

export function registerIndexerGauges(registry: Registry, db: Database, now: () => Date): void {
  const indexer = cachedRead(() => readIndexerSnapshot(db.replica));
  scrapedGauge(registry, "namereg_indexer_ledger", "Last ledger the indexer has processed", async (g) => {
    const s = await indexer();
    if (s?.processedLedger != null) g.set(s.processedLedger);
  });
  scrapedGauge(registry, "namereg_indexer_head_ledger", "Chain head the indexer last observed", async (g) => {
    const s = await indexer();
    if (s?.headLedger != null) g.set(s.headLedger);
  });
  scrapedGauge(
    registry,
    "namereg_indexer_lag_ledgers",
    "Ledgers between the observed head and the processed ledger",
    async (g) => {
      const s = await indexer();
      if (s?.headLedger != null && s.processedLedger != null)
        g.set(Math.max(0, s.headLedger - s.processedLedger));
    },
  );
  scrapedGauge(
    registry,
    "namereg_indexer_progress_age_seconds",
    "Seconds since the indexer last made progress",
    async (g) => {
      const s = await indexer();
      if (s?.processedAt != null) g.set(Math.max(0, (now().getTime() - s.processedAt.getTime()) / 1000));
    },
  );
  scrapedGauge(registry, "namereg_indexer_dead_letters", "Unresolved dead letters", async (g) => {
    const s = await indexer();
    if (s !== null) g.set(s.deadLetters);
  });
  scrapedGauge(registry, "namereg_indexer_gaps", "Recorded coverage gaps", async (g) => {
    const s = await indexer();
    if (s !== null) g.set(s.gaps.length);
  });
  scrapedGauge(
    registry,
    "namereg_indexer_chain_refused",
    "1 while the writer refuses the chain it is pointed at (another network, a chain that went backwards)",
    async (g) => {
      const s = await indexer();
      if (s !== null) g.set((s.chainRefusal ?? null) === null ? 0 : 1);
    },
  );
  if (db.poolStats !== undefined) {
    const stats = db.poolStats.bind(db);
    scrapedGauge(
      registry,
      "namereg_db_pool_connections",
      "Writer pool connections by state",
      (g) => {
        const s = stats();
        g.set({ state: "total" }, s.total);
        g.set({ state: "idle" }, s.idle);
        g.set({ state: "waiting" }, s.waiting);
      },
      ["state"],
    );
  }
}
