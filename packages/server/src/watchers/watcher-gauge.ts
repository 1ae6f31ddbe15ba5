// An account watcher's figures on /metrics, read from its /v1/status component at scrape time: the cursor's age,
// what waits for an operator, and 1 while its cursor is past the RPC's retention (retention-gap.ts).
import type { Registry } from "prom-client";
import { scrapedGauge } from "../metrics/scraped-gauge.ts";

export function registerWatcherGauge(
  registry: Registry,
  o: {
    readonly name: string;
    readonly help: string;
    /** The label of what waits for an operator (`parked_payouts`, `quarantined`). */
    readonly waiting: string;
    readonly read: () => Promise<{ cursorAgeSeconds: number | null; waiting: number | null; gap?: unknown }>;
  },
): void {
  scrapedGauge(
    registry,
    o.name,
    `${o.help}: cursor_age_seconds, ${o.waiting}, and retention_gap (1 while its cursor is past the RPC's retention)`,
    async (g) => {
      const c = await o.read();
      if (c.cursorAgeSeconds !== null) g.set({ figure: "cursor_age_seconds" }, c.cursorAgeSeconds);
      if (c.waiting !== null) g.set({ figure: o.waiting }, c.waiting);
      g.set({ figure: "retention_gap" }, c.gap === undefined ? 0 : 1);
    },
    ["figure"],
  );
}
