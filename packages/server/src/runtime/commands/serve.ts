import { waitForReplicaSchema } from "../../db/replica-schema.ts";
import { ServiceMetrics } from "../../metrics/service-metrics.ts";
import type { CommandIo } from "../../process/command-io.ts";
import { listenForMetrics } from "../../process/metrics-listener.ts";
import { openRuntime } from "../../process/runtime.ts";
import { startApi } from "./start-api.ts";

export async function serveCommand(io: CommandIo): Promise<number> {
  const rt = await openRuntime("serve", io);
  const { signal, done } = io.untilStopped();
  // Not listening (so not ready, not even /health) until the read replica can serve this code's queries.
  if (!(await waitForReplicaSchema(rt.database, { log: rt.logger, signal }))) {
    await rt.database.close();
    return 0;
  }
  const metrics = new ServiceMetrics();
  const { app, url } = await startApi(rt, metrics);
  rt.logger.info({ url }, "API listening");
  const closeMetrics = await listenForMetrics(rt, metrics.registry);
  rt.logger.info({ signal: await done }, "shutting down");
  await closeMetrics();
  await app.close();
  await rt.database.close();
  return 0;
}
