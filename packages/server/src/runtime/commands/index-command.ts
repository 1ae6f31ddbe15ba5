import type { Env } from "../../config/index.ts";
import { openRuntime } from "../../process/runtime.ts";
import { untilSignal } from "../../process/until-signal.ts";
import { runIndexerProcess } from "../indexer-process.ts";

export async function indexCommand(env?: Env): Promise<void> {
  const rt = await openRuntime("index", env);
  const { signal, done } = untilSignal();
  void done.then((name) => rt.logger.info({ signal: name }, "shutting down"));
  await runIndexerProcess({ config: rt.config, database: rt.database, logger: rt.logger, signal });
  await rt.database.close();
}
