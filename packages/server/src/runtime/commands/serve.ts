import type { Env } from "../../config/index.ts";
import { waitForReplicaSchema } from "../../db/replica-schema.ts";
import { ServiceMetrics } from "../../metrics/service-metrics.ts";
import { listenForMetrics } from "../../process/metrics-listener.ts";
import { openRuntime } from "../../process/runtime.ts";
import { untilSignal } from "../../process/until-signal.ts";
import { startApi } from "./start-api.ts";

export async function serveCommand(env?: Env): Promise<void> {
  const rt = await openRuntime("serve", env);
  const { signal, done } = untilSignal();
  // Not listening (so not ready, not even /health) until the read replica can serve this code's queries.
  if (!(await waitForReplicaSchema(rt.database, { log: rt.logger, signal }))) {
    await rt.database.close();
    return;
  }
  const metrics = new ServiceMetrics();
  const { app, url } = await startApi(rt, metrics);
  rt.logger.info({ url }, "API listening");
  const closeMetrics = await listenForMetrics(rt, metrics.registry);
  rt.logger.info({ signal: await done }, "shutting down");
  await closeMetrics();
  await app.close();
  await rt.database.close();
}
