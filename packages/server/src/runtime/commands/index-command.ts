import type { Env } from "../../config/index.ts";
import { runIndexerProcess } from "../indexer-process.ts";
import { runObserved } from "./metrics-listener.ts";
import { openRuntime } from "./runtime.ts";

export async function indexCommand(env?: Env): Promise<void> {
  const rt = await openRuntime("index", env);
  await runObserved(rt, ({ signal, metrics }) =>
    runIndexerProcess({
      config: rt.config,
      database: rt.database,
      logger: rt.logger,
      signal,
      onBatch: (info) => metrics.observeBatch(info),
    }),
  );
}
