// Figures another process owns (the indexer, the watchers, the webhook deliverer), read from the database at
// scrape time: the same numbers /v1/status reports, so every process that serves /metrics (an API replica, or
// `index`, a watcher, the deliverer on METRICS_PORT) reports them, whichever process does the work.
import { Gauge, type Registry } from "prom-client";
import { billingComponent } from "../billing/status.ts";
import type { Config } from "../config/index.ts";
import { readIndexerSnapshot } from "../db/coverage.ts";
import type { Database } from "../db/types.ts";
import { escrowComponent } from "../escrow/status.ts";
import { readDeliveryBacklog } from "../webhooks/status.ts";

export interface GaugeDeps {
  readonly registry: Registry;
  readonly db: Database;
  readonly config: Config;
  readonly now: () => Date;
}

/** A gauge whose value is collected when scraped. */
export function scrapedGauge(
  registry: Registry,
  name: string,
  help: string,
  collect: (g: Gauge) => Promise<void> | void,
  labels: string[] = [],
): Gauge {
  return new Gauge({
    name,
    help,
    labelNames: labels,
    registers: [registry],
    async collect() {
      await collect(this);
    },
  });
}

/** At most one read per second, shared by the gauges that take their figures from it. */
function cached<T>(read: () => Promise<T>): () => Promise<T | null> {
  let last: { at: number; value: T | null } = { at: 0, value: null };
  return async () => {
    if (Date.now() - last.at > 1000) last = { at: Date.now(), value: await read().catch(() => null) };
    return last.value;
  };
}

export function registerDatabaseGauges({ registry, db, config, now }: GaugeDeps): void {
  const gauge = (
    name: string,
    help: string,
    collect: (g: Gauge) => Promise<void> | void,
    labels?: string[],
  ) => scrapedGauge(registry, name, help, collect, labels);

  const indexer = cached(() => readIndexerSnapshot(db.replica));
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
  gauge(
    "namereg_indexer_stopped",
    "1 while the writer refuses the chain it is pointed at (a different network, a chain that went backwards)",
    async (g) => {
      const s = await indexer();
      if (s !== null) g.set(s.chainRefusal === null ? 0 : 1);
    },
  );

  if (config.billing.enabled) {
    gauge(
      "namereg_billing_watcher",
      "Billing watcher: cursor age in seconds, quarantined payments, and 1 while its cursor is past the RPC's retention",
      async (g) => {
        const c = await billingComponent(db.replica, now());
        if (c.cursorAgeSeconds !== null) g.set({ figure: "cursor_age_seconds" }, c.cursorAgeSeconds);
        if (c.quarantined !== null) g.set({ figure: "quarantined" }, c.quarantined);
        g.set({ figure: "retention_gap" }, c.gap === undefined ? 0 : 1);
      },
      ["figure"],
    );
  }
  if (config.market.enabled) {
    gauge(
      "namereg_escrow_watcher",
      "Escrow watcher: cursor age in seconds, parked payouts, and 1 while its cursor is past the RPC's retention",
      async (g) => {
        const c = await escrowComponent(db.replica, now());
        if (c.cursorAgeSeconds !== null) g.set({ figure: "cursor_age_seconds" }, c.cursorAgeSeconds);
        if (c.parkedPayouts !== null) g.set({ figure: "parked_payouts" }, c.parkedPayouts);
        g.set({ figure: "retention_gap" }, c.gap === undefined ? 0 : 1);
      },
      ["figure"],
    );
  }

  const backlog = cached(() => readDeliveryBacklog(db.replica, now()));
  gauge("namereg_webhook_deliveries_pending", "Webhook deliveries waiting to be delivered", async (g) => {
    const b = await backlog();
    if (b !== null) g.set(b.pending);
  });
  gauge(
    "namereg_webhook_delivery_lag_seconds",
    "Age of the oldest webhook delivery still pending (0 when none is)",
    async (g) => {
      const b = await backlog();
      if (b !== null) g.set(b.oldestPendingAgeSeconds);
    },
  );

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
}
