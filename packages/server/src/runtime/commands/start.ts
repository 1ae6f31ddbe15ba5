import { runBillingWatcherProcess } from "../../billing/watcher-process.ts";
import type { Role } from "../../config/index.ts";
import { waitForReplicaSchema } from "../../db/replica-schema.ts";
import { runEscrowWatcherProcess } from "../../escrow/watcher-process.ts";
import { ChainIdentityError } from "../../indexer/chain-identity.ts";
import { ServiceMetrics } from "../../metrics/service-metrics.ts";
import type { CommandIo } from "../../process/command-io.ts";
import { keepRunning } from "../../process/keep-running.ts";
import { listenForMetrics } from "../../process/metrics-listener.ts";
import { openRuntime } from "../../process/runtime.ts";
import { runDelivererProcess } from "../../webhooks/deliverer-process.ts";
import { runIndexerProcess } from "../indexer-process.ts";
import { type ApiExtras, startApi } from "./start-api.ts";

/** API and indexer in one process (the single-machine deployment). */
export async function startCommand(
  io: CommandIo,
  role: Role = "start",
  onReady?: (url: string) => void | Promise<void>,
  /** What only `namereg dev` adds to the app: the Demo wallet. */
  extras: ApiExtras = {},
): Promise<number> {
  const rt = await openRuntime(role, io);
  const { signal, done } = io.untilStopped();
  if (!(await waitForReplicaSchema(rt.database, { log: rt.logger, signal }))) {
    await rt.database.close();
    return 0;
  }
  // One registry for the process: the API serves what the in-process indexer counts.
  const metrics = new ServiceMetrics();
  const { app, url } = await startApi(rt, metrics, extras);
  rt.logger.info({ url }, "API listening");
  const closeMetrics = await listenForMetrics(rt, metrics.registry);
  const parts = { config: rt.config, database: rt.database, logger: rt.logger, signal, metrics };
  // A writer that refuses the chain (docs/operations.md "A different or reset chain") has said why, in the log
  // and in /v1/status, which this process goes on serving.
  const indexing = runIndexerProcess({ ...parts, onBatch: (info) => metrics.observeBatch(info) }).catch(
    (err: unknown) => {
      if (!(err instanceof ChainIdentityError)) throw err;
    },
  );
  // Each started again when its lock or its database goes (a failover), as the indexer is (keep-running.ts).
  const escrow = rt.config.market.enabled
    ? keepRunning("escrow watcher", () => runEscrowWatcherProcess(parts), parts)
    : Promise.resolve();
  const billing = rt.config.billing.enabled
    ? keepRunning("billing watcher", () => runBillingWatcherProcess(parts), parts)
    : Promise.resolve();
  const webhooks = keepRunning("webhook deliverer", () => runDelivererProcess(parts), parts);
  // Seeding reads on-chain ownership through the API, so it runs once the indexer is on its way.
  await onReady?.(url);
  rt.logger.info({ signal: await done }, "shutting down");
  await indexing;
  await escrow;
  await billing;
  await webhooks;
  await closeMetrics();
  await app.close();
  await rt.database.close();
  return 0;
}
