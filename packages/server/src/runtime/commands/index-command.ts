import type { CommandIo } from "../../process/command-io.ts";
import { openRuntime } from "../../process/runtime.ts";
import { runIndexerProcess } from "../indexer-process.ts";

export async function indexCommand(io: CommandIo): Promise<number> {
  const rt = await openRuntime("index", io);
  const { signal, done } = io.untilStopped();
  void done.then((name) => rt.logger.info({ signal: name }, "shutting down"));
  await runIndexerProcess({ config: rt.config, database: rt.database, logger: rt.logger, signal });
  await rt.database.close();
  return 0;
}
