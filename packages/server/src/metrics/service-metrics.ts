// The service's Prometheus metrics (prom-client), one registry per process — never prom-client's global one, so
// tests that build several apps do not collide. Counters the hot paths increment live here; figures that another
// process owns (an indexer or watcher running elsewhere) are read from the database when scraped
// (api/plugins/metrics.ts), so every topology reports the same numbers.
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { RequestDurations } from "./request-durations.ts";

/** Seconds. */
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export class ServiceMetrics {
  readonly registry = new Registry();

  readonly httpDuration = new RequestDurations(
    "namereg_http_request_duration_seconds",
    "HTTP request duration by route pattern, method and status code",
    HTTP_DURATION_BUCKETS,
    this.registry,
  );

  readonly resolveCache = new Counter({
    name: "namereg_resolve_cache_lookups_total",
    help: "Resolve cache lookups by result (hit, miss; stale: a miss answered stale while the mirror could not be read)",
    labelNames: ["result"] as const,
    registers: [this.registry],
  });

  /** Incremented where the indexer runs in this process (`start`, `dev`, `index`). */
  readonly indexerEvents = new Counter({
    name: "namereg_indexer_events_total",
    help: "Events fetched and committed by the indexer in this process",
    registers: [this.registry],
  });

  readonly indexerBatchDuration = new Histogram({
    name: "namereg_indexer_batch_duration_seconds",
    help: "Time from fetching to committing one indexer batch in this process",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly indexerDeadLettered = new Counter({
    name: "namereg_indexer_dead_lettered_total",
    help: "Events dead-lettered by the indexer in this process",
    registers: [this.registry],
  });

  /** Incremented where the webhook deliverer runs in this process (`start`, `dev`, `webhooks deliver`). */
  readonly webhookAttempts = new Counter({
    name: "namereg_webhook_attempts_total",
    help: "Webhook delivery attempts by outcome: delivered, retry (failed, tried again later), failed (given up)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });

  readonly webhookAttemptDuration = new Histogram({
    name: "namereg_webhook_attempt_duration_seconds",
    help: "Duration of one webhook delivery attempt",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
    registers: [this.registry],
  });

  /** Incremented where a watcher runs in this process: its failed passes (each retried after a growing pause). */
  readonly watcherPassFailures = new Counter({
    name: "namereg_watcher_pass_failures_total",
    help: "Failed escrow / billing watcher passes in this process",
    labelNames: ["watcher"] as const,
    registers: [this.registry],
  });

  /** One committed indexer batch, where the indexer runs in this process. */
  observeBatch(info: {
    readonly events: number;
    readonly commitMs: number;
    readonly deadLettered: number;
  }): void {
    this.indexerEvents.inc(info.events);
    this.indexerBatchDuration.observe(info.commitMs / 1000);
    if (info.deadLettered > 0) this.indexerDeadLettered.inc(info.deadLettered);
  }

  /** One recorded webhook attempt, where the deliverer runs in this process. */
  observeAttempt(a: {
    readonly outcome: "delivered" | "retry" | "failed";
    readonly durationMs: number;
  }): void {
    this.webhookAttempts.inc({ outcome: a.outcome });
    this.webhookAttemptDuration.observe(a.durationMs / 1000);
  }

  constructor(opts: { readonly processMetrics?: boolean } = {}) {
    if (opts.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: "namereg_" });
  }
}
