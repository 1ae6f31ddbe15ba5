import { registerIndexerGauges } from "../../metrics/indexer-gauges.ts";
import { ServiceMetrics } from "../../metrics/service-metrics.ts";
import type { CommandIo } from "../../process/command-io.ts";
import { runObserved } from "../../process/metrics-listener.ts";
import { openRuntime } from "../../process/runtime.ts";
import { runIndexerProcess } from "../indexer-process.ts";

export async function indexCommand(io: CommandIo): Promise<number> {
  const rt = await openRuntime("index", io);
  const metrics = new ServiceMetrics();
  registerIndexerGauges(metrics.registry, rt.database, () => new Date());
  await runObserved(rt, metrics.registry, io.untilStopped(), (signal) =>
    runIndexerProcess({
      config: rt.config,
      database: rt.database,
      logger: rt.logger,
      signal,
      onBatch: (info) => metrics.observeBatch(info),
    }),
  );
  return 0;
}
