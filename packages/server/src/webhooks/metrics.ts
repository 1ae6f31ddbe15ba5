// The deliverer's backlog on /metrics, read from the database at scrape time: deliveries waiting and how old the
// oldest is (its lag). The attempts are counted where the deliverer runs (ServiceMetrics.observeAttempt).
import type { Registry } from "prom-client";
import type { Db } from "../db/types.ts";
import { cachedRead, scrapedGauge } from "../metrics/scraped-gauge.ts";
import { readDeliveryBacklog } from "./status.ts";

export function registerDelivererGauges(registry: Registry, db: Db, now: () => Date): void {
  const backlog = cachedRead(() => readDeliveryBacklog(db, now()));
  scrapedGauge(
    registry,
    "namereg_webhook_deliveries_pending",
    "Webhook deliveries waiting to be delivered",
    async (g) => {
      const b = await backlog();
      if (b !== null) g.set(b.pending);
    },
  );
  scrapedGauge(
    registry,
    "namereg_webhook_delivery_lag_seconds",
    "Age of the oldest webhook delivery still pending (0 when none is)",
    async (g) => {
      const b = await backlog();
      if (b !== null) g.set(b.oldestPendingAgeSeconds);
    },
  );
}
