// One holder per database for a watcher: take the advisory lock (or wait for it as a standby), run `work` until
// the process is told to stop or the lock is lost, release it. Shared by the escrow and billing watchers and the
// webhook deliverer.
import type { Logger } from "pino";
import { advisoryLockKey, type Database } from "../db/index.ts";

export async function whileHoldingLock(
  opts: { database: Database; logger: Logger; signal: AbortSignal; lockName: string; what: string },
  work: (stop: AbortSignal) => Promise<void>,
): Promise<void> {
  const { database, logger, signal, what } = opts;
  const key = advisoryLockKey(opts.lockName);
  let lock = await database.tryAdvisoryLock(key);
  if (lock === null) {
    logger.info(`another ${what} holds the lock; waiting as a standby`);
    try {
      lock = await database.advisoryLock(key, { signal });
    } catch (err) {
      if (signal.aborted) return;
      throw err;
    }
  }
  try {
    await work(AbortSignal.any([signal, lock.lost]));
    if (lock.lost.aborted) logger.error(`the ${what} lost its lock; stopped`);
  } finally {
    await lock.release().catch(() => undefined);
  }
}
