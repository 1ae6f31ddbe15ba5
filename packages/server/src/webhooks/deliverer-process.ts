// The webhook deliverer as part of a process (`namereg start`, `namereg dev`, `namereg webhooks deliver`): one per
// database. It holds an advisory lock for its whole life (process/sole-holder.ts), so a second deliverer waits as
// a standby and takes over when the first one's lock goes; the epoch it takes on getting the lock fences the
// writes of a predecessor that has not noticed yet (store.ts). It wakes on every committed outbox change.
import type { Logger } from "pino";
import type { Config } from "../config/index.ts";
import type { Database } from "../db/index.ts";
import { CHANGES_CHANNEL } from "../db/outbox.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import { whileHoldingLock } from "../process/sole-holder.ts";
import { WebhookDeliverer } from "./deliverer.ts";
import { takeDelivererEpoch } from "./store.ts";
import type { Resolver } from "./target-policy.ts";

export const DELIVERER_LOCK = "namereg:webhooks";

export interface DelivererProcessOptions {
  readonly config: Config;
  readonly database: Database;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /** How target host names are resolved; default the system's resolver. */
  readonly resolve?: Resolver;
  /** Where this process counts its attempts (/metrics). */
  readonly metrics?: ServiceMetrics;
}

/** Runs until the signal (or until the lock is lost). */
export async function runDelivererProcess(opts: DelivererProcessOptions): Promise<void> {
  const { config, database, logger, signal } = opts;
  await whileHoldingLock(
    { database, logger, signal, lockName: DELIVERER_LOCK, what: "webhook deliverer" },
    async (stop) => {
      const epoch = await takeDelivererEpoch(database.db, new Date());
      const deliverer = new WebhookDeliverer({
        db: database.db,
        settings: config.webhooks,
        epoch,
        ...(opts.resolve === undefined ? {} : { resolve: opts.resolve }),
        userAgent: `${config.serviceName}-webhooks`,
        onError: (err) => logger.warn({ err }, "webhook deliverer: a pass or an attempt failed; retrying"),
        ...(opts.metrics === undefined ? {} : { onAttempt: (a) => opts.metrics?.observeAttempt(a) }),
      });
      const subscription = await database.listen(CHANGES_CHANNEL, () => deliverer.changed(), {
        onReconnect: () => deliverer.changed(),
      });
      logger.info({ epoch }, "webhook deliverer active");
      try {
        await deliverer.run(stop);
      } finally {
        await subscription.close().catch(() => undefined);
      }
    },
  );
}
