// The billing watcher's figures on /metrics (watchers/watcher-gauge.ts).
import type { Registry } from "prom-client";
import type { Db } from "../db/types.ts";
import { registerWatcherGauge } from "../watchers/watcher-gauge.ts";
import { billingComponent } from "./status.ts";

export function registerBillingGauges(registry: Registry, db: Db, now: () => Date): void {
  registerWatcherGauge(registry, {
    name: "namereg_billing_watcher",
    help: "Billing watcher",
    waiting: "quarantined",
    read: async () => {
      const c = await billingComponent(db, now());
      return { ...c, waiting: c.quarantined };
    },
  });
}
