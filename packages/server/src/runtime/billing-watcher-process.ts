// The billing watcher as part of a process (`namereg start`, `namereg dev`, `namereg billing watch`). It signs
// nothing, but one watcher per database keeps the cursor moving forward only; a second waits as a standby on the
// advisory lock and takes over when the first one's lock goes.
import { rpc } from "@stellar/stellar-sdk";
import type { Logger } from "pino";
import type { Config } from "../config/index.ts";
import { advisoryLockKey, type Database } from "../db/index.ts";
import { BillingWatcher } from "../watchers/billing/watcher.ts";

export const BILLING_LOCK = "namereg:billing";

export interface BillingProcessOptions {
  readonly config: Config;
  readonly database: Database;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly pollMs?: number;
}

/** Runs until the signal; returns at once when billing is off. */
export async function runBillingWatcherProcess(opts: BillingProcessOptions): Promise<void> {
  const { config, database, logger, signal } = opts;
  const { billing } = config;
  if (!billing.enabled) return;
  const { rpcUrl, networkPassphrase } = config.chain;
  if (billing.account === null || rpcUrl === null || networkPassphrase === null) {
    throw new Error("the billing watcher needs BILLING_ACCOUNT, RPC_URL and NETWORK_PASSPHRASE");
  }
  const key = advisoryLockKey(BILLING_LOCK);
  let lock = await database.tryAdvisoryLock(key);
  if (lock === null) {
    logger.info("another billing watcher holds the lock; waiting as a standby");
    try {
      lock = await database.advisoryLock(key, { signal });
    } catch (err) {
      if (signal.aborted) return;
      throw err;
    }
  }
  const stop = AbortSignal.any([signal, lock.lost]);
  try {
    const watcher = new BillingWatcher({
      db: database.db,
      server: new rpc.Server(rpcUrl, { allowHttp: rpcUrl.startsWith("http://") }),
      networkPassphrase,
      account: billing.account,
      pricePerPeriod: billing.pricePerPeriod,
      startLedger: billing.startLedger,
    });
    logger.info({ account: billing.account }, "billing watcher active");
    await watcher.run(stop, {
      pollMs: opts.pollMs ?? billing.pollMs,
      onError: (err) => logger.error({ err }, "billing watcher pass failed; retrying"),
    });
    if (lock.lost.aborted) logger.error("the billing watcher lost its lock; stopped");
  } finally {
    await lock.release().catch(() => undefined);
  }
}
