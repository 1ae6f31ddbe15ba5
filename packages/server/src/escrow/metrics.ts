// The escrow watcher's figures on /metrics (watchers/watcher-gauge.ts).
import type { Registry } from "prom-client";
import type { Db } from "../db/types.ts";
import { registerWatcherGauge } from "../watchers/watcher-gauge.ts";
import { escrowComponent } from "./status.ts";

export function registerEscrowGauges(registry: Registry, db: Db, now: () => Date): void {
  registerWatcherGauge(registry, {
    name: "namereg_escrow_watcher",
    help: "Escrow watcher",
    waiting: "parked_payouts",
    read: async () => {
      const c = await escrowComponent(db, now());
      return { ...c, waiting: c.parkedPayouts };
    },
  });
}
