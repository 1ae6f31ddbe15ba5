// Gauges whose value is read when scraped: the figures another process owns (the indexer, a watcher, the
// deliverer), read from the database, so every process serving /metrics reports what /v1/status reports.
import { Gauge, type Registry } from "prom-client";

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

/** At most one read per second, shared by the gauges that take their figures from it; null when it fails. */
export function cachedRead<T>(read: () => Promise<T>): () => Promise<T | null> {
  let last: { at: number; value: T | null } = { at: 0, value: null };
  return async () => {
    if (Date.now() - last.at > 1000) last = { at: Date.now(), value: await read().catch(() => null) };
    return last.value;
  };
}
