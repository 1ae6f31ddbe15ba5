import type { Env } from "../../config/index.ts";
import { registerIndexerGauges } from "../../metrics/indexer-gauges.ts";
import { ServiceMetrics } from "../../metrics/service-metrics.ts";
import { runObserved } from "../../process/metrics-listener.ts";
import { openRuntime } from "../../process/runtime.ts";
import { runIndexerProcess } from "../indexer-process.ts";

export async function indexCommand(env?: Env): Promise<void> {
  const rt = await openRuntime("index", env);
  const metrics = new ServiceMetrics();
  registerIndexerGauges(metrics.registry, rt.database, () => new Date());
  await runObserved(rt, metrics.registry, (signal) =>
    runIndexerProcess({
      config: rt.config,
      database: rt.database,
      logger: rt.logger,
      signal,
      onBatch: (info) => metrics.observeBatch(info),
    }),
  );
}
