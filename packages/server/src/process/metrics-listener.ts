// The METRICS_PORT listener of a long-running process (metrics-server.ts): every process that runs for good serves
// `/health` and `/metrics` there when METRICS_PORT is set. What its registry holds — the counters of the work the
// process does, the figures it reads from the database — its command puts there.
import type { Registry } from "prom-client";
import type { Stopping } from "./command-io.ts";
import { startMetricsServer } from "./metrics-server.ts";
import type { Runtime } from "./runtime.ts";

/** Starts the listener when METRICS_PORT is set; returns what closes it (nothing to close otherwise). */
export async function listenForMetrics(rt: Runtime, registry: Registry): Promise<() => Promise<void>> {
  const listener = rt.config.metricsListener;
  if (listener === null) return async () => {};
  const server = await startMetricsServer({
    ...listener,
    serviceName: rt.config.serviceName,
    // METRICS_ENABLED=false: /health still answers, /metrics does not.
    registry: rt.config.metricsEnabled ? registry : null,
  });
  rt.logger.info({ url: server.url }, "health and metrics listening");
  return () => server.close();
}

/**
 * A long-running command's life once its runtime is open: `work` until its stop (SIGINT/SIGTERM or its launcher
 * exiting, for the process entry; `io.untilStopped()`), with the METRICS_PORT listener beside it; the database
 * closes last.
 */
export async function runObserved(
  rt: Runtime,
  registry: Registry,
  stopping: Stopping,
  work: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const { signal, done } = stopping;
  void done.then((name) => rt.logger.info({ signal: name }, "shutting down"));
  try {
    const closeMetrics = await listenForMetrics(rt, registry);
    try {
      await work(signal);
    } finally {
      await closeMetrics();
    }
  } finally {
    await rt.database.close();
  }
}
