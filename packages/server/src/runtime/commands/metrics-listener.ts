// The METRICS_PORT listener of a long-running command (metrics/metrics-server.ts): every process that runs for
// good serves `/health` and `/metrics` there when METRICS_PORT is set, with the database-derived figures that
// /v1/status reports and the counters of the work it does itself.
import { registerDatabaseGauges } from "../../metrics/database-gauges.ts";
import { startMetricsServer } from "../../metrics/metrics-server.ts";
import { ServiceMetrics } from "../../metrics/service-metrics.ts";
import type { Runtime } from "./runtime.ts";
import { untilSignal } from "./until-signal.ts";

/** Starts the listener when METRICS_PORT is set; returns what closes it (nothing to close otherwise). */
export async function listenForMetrics(rt: Runtime, metrics: ServiceMetrics): Promise<() => Promise<void>> {
  const listener = rt.config.metricsListener;
  if (listener === null) return async () => {};
  if (rt.config.metricsEnabled && !metrics.hasDatabaseGauges) {
    registerDatabaseGauges({
      registry: metrics.registry,
      db: rt.database,
      config: rt.config,
      now: () => new Date(),
    });
    metrics.hasDatabaseGauges = true;
  }
  const server = await startMetricsServer({
    ...listener,
    serviceName: rt.config.serviceName,
    registry: rt.config.metricsEnabled ? metrics.registry : null,
  });
  rt.logger.info({ url: server.url }, "health and metrics listening");
  return () => server.close();
}

/**
 * A long-running command's life after its runtime is open: until SIGINT/SIGTERM (or its launcher exits), with
 * the METRICS_PORT listener beside it; the database closes last.
 */
export async function runObserved(
  rt: Runtime,
  work: (o: { readonly signal: AbortSignal; readonly metrics: ServiceMetrics }) => Promise<void>,
): Promise<void> {
  const { signal, done } = untilSignal();
  void done.then((name) => rt.logger.info({ signal: name }, "shutting down"));
  const metrics = new ServiceMetrics();
  try {
    const closeMetrics = await listenForMetrics(rt, metrics);
    try {
      await work({ signal, metrics });
    } finally {
      await closeMetrics();
    }
  } finally {
    await rt.database.close();
  }
}
