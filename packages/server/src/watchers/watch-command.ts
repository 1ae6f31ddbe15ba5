// `namereg escrow watch` and `namereg billing watch`: the watcher of a feature run until its stop, with its gauges
// and failed-pass counter on METRICS_PORT (process/metrics-listener.ts). Exit 1 when the feature is off.

import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { Config } from "../config/index.ts";
import type { Database } from "../db/index.ts";
import type { Db } from "../db/types.ts";
import { ServiceMetrics } from "../metrics/service-metrics.ts";
import type { CommandIo } from "../process/command-io.ts";
import { runObserved } from "../process/metrics-listener.ts";
import { openRuntime } from "../process/runtime.ts";

export interface WatchTarget {
  /** `namereg escrow watch`: how the command names itself. */
  readonly command: string;
  enabled(config: Config): boolean;
  /** What to set when the feature is off, after "<command>: ". */
  readonly off: string;
  registerGauges(registry: Registry, db: Db, now: () => Date): void;
  run(opts: {
    config: Config;
    database: Database;
    logger: Logger;
    signal: AbortSignal;
    metrics: ServiceMetrics;
  }): Promise<void>;
}

export async function watchCommand(target: WatchTarget, io: CommandIo): Promise<number> {
  const rt = await openRuntime("index", io, { command: target.command });
  if (!target.enabled(rt.config)) {
    // Nothing to watch: a supervisor must see a failure, not a clean exit that looks like a finished job.
    io.err(`${target.command}: ${target.off}`);
    await rt.database.close();
    return 1;
  }
  const metrics = new ServiceMetrics();
  target.registerGauges(metrics.registry, rt.database.replica, () => new Date());
  await runObserved(rt, metrics.registry, io.untilStopped(), (signal) =>
    target.run({ config: rt.config, database: rt.database, logger: rt.logger, signal, metrics }),
  );
  return 0;
}
