// GET /metrics in Prometheus text format (docs/operations.md has a scrape config). Request durations are observed
// on every answer by route pattern (bounded label values, never the raw URL); the indexer's and the watchers'
// figures are read from the database at scrape time — the same numbers /v1/status reports — so an API replica
// reports them whichever process does the work. Off the rate limits: a scraper must never be refused.
import type { FastifyInstance } from "fastify";
import { Gauge } from "prom-client";
import { billingComponent } from "../../billing/status.ts";
import type { Config } from "../../config/index.ts";
import { readIndexerSnapshot } from "../../db/coverage.ts";
import type { Database } from "../../db/types.ts";
import { escrowComponent } from "../../escrow/status.ts";
import type { ServiceMetrics } from "../../metrics/service-metrics.ts";
import type { ResolveCache } from "../resolve-cache.ts";

export const METRICS_PATH = "/metrics";

export function registerMetrics(
  app: FastifyInstance,
  deps: {
    readonly metrics: ServiceMetrics;
    readonly db: Database;
    readonly config: Config;
    readonly cache: ResolveCache;
    readonly now: () => Date;
  },
): void {
  const { metrics, db, config, cache, now } = deps;
  const { registry } = metrics;

  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "unmatched";
    if (route === METRICS_PATH) return;
    metrics.httpDuration.observe(
      { route, method: request.method, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  // The cache counts in plain numbers on its hot path; the counter catches up when scraped.
  const seen = { hits: 0, misses: 0 };
  const gauge = (
    name: string,
    help: string,
    collect: (g: Gauge) => Promise<void> | void,
    labels: string[] = [],
  ) =>
    new Gauge({
      name,
      help,
      labelNames: labels,
      registers: [registry],
      async collect() {
        await collect(this);
      },
    });

  gauge("namereg_resolve_cache_entries", "Entries in this process's resolve cache", (g) => {
    metrics.resolveCache.inc({ result: "hit" }, cache.stats.hits - seen.hits);
    metrics.resolveCache.inc({ result: "miss" }, cache.stats.misses - seen.misses);
    seen.hits = cache.stats.hits;
    seen.misses = cache.stats.misses;
    g.set(cache.size);
  });

  // One database read per scrape, shared by the indexer gauges.
  let snapshot: { at: number; value: Awaited<ReturnType<typeof readIndexerSnapshot>> | null } = {
    at: 0,
    value: null,
  };
  const indexer = async () => {
    if (Date.now() - snapshot.at > 1000) {
      snapshot = { at: Date.now(), value: await readIndexerSnapshot(db.replica).catch(() => null) };
    }
    return snapshot.value;
  };
  gauge("namereg_indexer_ledger", "Last ledger the indexer has processed", async (g) => {
    const s = await indexer();
    if (s?.processedLedger != null) g.set(s.processedLedger);
  });
  gauge("namereg_indexer_head_ledger", "Chain head the indexer last observed", async (g) => {
    const s = await indexer();
    if (s?.headLedger != null) g.set(s.headLedger);
  });
  gauge(
    "namereg_indexer_lag_ledgers",
    "Ledgers between the observed head and the processed ledger",
    async (g) => {
      const s = await indexer();
      if (s?.headLedger != null && s.processedLedger != null)
        g.set(Math.max(0, s.headLedger - s.processedLedger));
    },
  );
  gauge("namereg_indexer_progress_age_seconds", "Seconds since the indexer last made progress", async (g) => {
    const s = await indexer();
    if (s?.processedAt != null) g.set(Math.max(0, (now().getTime() - s.processedAt.getTime()) / 1000));
  });
  gauge("namereg_indexer_dead_letters", "Unresolved dead letters", async (g) => {
    const s = await indexer();
    if (s !== null) g.set(s.deadLetters);
  });
  gauge("namereg_indexer_gaps", "Recorded coverage gaps", async (g) => {
    const s = await indexer();
    if (s !== null) g.set(s.gaps.length);
  });

  if (config.billing.enabled) {
    gauge(
      "namereg_billing_watcher",
      "Billing watcher: cursor age in seconds and quarantined payments",
      async (g) => {
        const c = await billingComponent(db.replica, now());
        if (c.cursorAgeSeconds !== null) g.set({ figure: "cursor_age_seconds" }, c.cursorAgeSeconds);
        if (c.quarantined !== null) g.set({ figure: "quarantined" }, c.quarantined);
      },
      ["figure"],
    );
  }
  if (config.market.enabled) {
    gauge(
      "namereg_escrow_watcher",
      "Escrow watcher: cursor age in seconds and parked payouts",
      async (g) => {
        const c = await escrowComponent(db.replica, now());
        if (c.cursorAgeSeconds !== null) g.set({ figure: "cursor_age_seconds" }, c.cursorAgeSeconds);
        if (c.parkedPayouts !== null) g.set({ figure: "parked_payouts" }, c.parkedPayouts);
      },
      ["figure"],
    );
  }
  if (db.poolStats !== undefined) {
    const stats = db.poolStats.bind(db);
    gauge(
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

  app.get(METRICS_PATH, { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) => {
    const body = await registry.metrics();
    return reply.header("content-type", registry.contentType).header("cache-control", "no-store").send(body);
  });
}
