// GET /metrics in Prometheus text format (docs/operations.md has a scrape config). Request durations are observed
// on every answer by route pattern (bounded label values, never the raw URL); the indexer's, the watchers' and the
// deliverer's figures are read from the database at scrape time (metrics/database-gauges.ts). Off the rate limits:
// a scraper must never be refused. With METRICS_PORT the route moves to that listener (metrics/metrics-server.ts)
// and the public port no longer answers it: the figures are the operator's, not every visitor's.
import type { FastifyInstance } from "fastify";
import { registerBillingGauges } from "../../billing/metrics.ts";
import type { Config } from "../../config/index.ts";
import type { Database } from "../../db/types.ts";
import { registerEscrowGauges } from "../../escrow/metrics.ts";
import { registerIndexerGauges } from "../../metrics/indexer-gauges.ts";
import { scrapedGauge } from "../../metrics/scraped-gauge.ts";
import type { ServiceMetrics } from "../../metrics/service-metrics.ts";
import { registerDelivererGauges } from "../../webhooks/metrics.ts";
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
  const seen = { hits: 0, misses: 0, staleServed: 0 };
  scrapedGauge(registry, "namereg_resolve_cache_entries", "Entries in this process's resolve cache", (g) => {
    metrics.resolveCache.inc({ result: "hit" }, cache.stats.hits - seen.hits);
    metrics.resolveCache.inc({ result: "miss" }, cache.stats.misses - seen.misses);
    // Misses answered with a stale answer while the mirror could not be read (resolve-cache.ts).
    metrics.resolveCache.inc({ result: "stale" }, cache.stats.staleServed - seen.staleServed);
    seen.hits = cache.stats.hits;
    seen.misses = cache.stats.misses;
    seen.staleServed = cache.stats.staleServed;
    g.set(cache.size);
  });
  registerIndexerGauges(registry, db, now);
  if (config.billing.enabled) registerBillingGauges(registry, db.replica, now);
  if (config.market.enabled) registerEscrowGauges(registry, db.replica, now);
  registerDelivererGauges(registry, db.replica, now);

  if (config.metricsListener !== null) return;
  // Off the rate limits, so anyone may send scrapes at once, each a rendering that reads the database: those that
  // arrive while one renders share it (nothing is kept once it is sent, so a later scrape is always fresh).
  let rendering: Promise<string> | null = null;
  app.get(METRICS_PATH, { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) => {
    rendering ??= registry.metrics().finally(() => {
      rendering = null;
    });
    const body = await rendering;
    return reply.header("content-type", registry.contentType).header("cache-control", "no-store").send(body);
  });
}
