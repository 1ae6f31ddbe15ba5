// The billing watcher as part of a process (`namereg start`, `namereg dev`, `namereg billing watch`). It signs
// nothing, but one watcher per database keeps the cursor moving forward only; a second waits as a standby on the
// advisory lock and takes over when the first one's lock goes.
import type { Logger } from "pino";
import { rpcServer } from "../chain/rpc-server.ts";
import type { Config } from "../config/index.ts";
import type { Database } from "../db/index.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import { whileHoldingLock } from "../process/sole-holder.ts";
import { logPassFailure } from "../watchers/pass-failures.ts";
import { BillingWatcher } from "./watcher.ts";

export const BILLING_LOCK = "namereg:billing";

export interface BillingProcessOptions {
  readonly config: Config;
  readonly database: Database;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly pollMs?: number;
  /** Where this process counts its failed passes (/metrics). */
  readonly metrics?: ServiceMetrics;
}

/** Runs until the signal; returns at once when billing is off. */
export async function runBillingWatcherProcess(opts: BillingProcessOptions): Promise<void> {
  const { config, database, logger, signal } = opts;
  const { billing } = config;
  if (!billing.enabled) return;
  const { rpcUrl, networkPassphrase } = config.chain;
  const account = billing.account;
  if (account === null || rpcUrl === null || networkPassphrase === null) {
    throw new Error("the billing watcher needs BILLING_ACCOUNT, RPC_URL and NETWORK_PASSPHRASE");
  }
  await whileHoldingLock(
    { database, logger, signal, lockName: BILLING_LOCK, what: "billing watcher" },
    async (stop) => {
      const watcher = new BillingWatcher({
        db: database.db,
        server: rpcServer(rpcUrl),
        networkPassphrase,
        account,
        pricePerPeriod: billing.pricePerPeriod,
        startLedger: billing.startLedger,
      });
      logger.info({ account: billing.account }, "billing watcher active");
      await watcher.run(stop, {
        pollMs: opts.pollMs ?? billing.pollMs,
        onError: logPassFailure(logger, "billing watcher", opts.metrics),
      });
    },
  );
}
