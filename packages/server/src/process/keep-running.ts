// A watcher or the webhook deliverer inside `namereg start`: its run ends when it loses its lock (its database
// connection died: a restart, a failover) or fails on a database error. Run alone (`namereg webhooks deliver`, …)
// the process then exits and its supervisor starts it again; in `namereg start` nothing would, and the part stayed
// stopped for the life of the process while the API and the indexer came back (bench/failover found the webhook
// deliverer `down` after a PostgreSQL failover). So in one process each part is started again, after a pause, as
// the indexer retakes its lock (runtime/indexer-process.ts), until the process is told to stop.
import type { Logger } from "pino";

/** Between a run's end and the next start: one lock attempt a second while the database is away costs nothing. */
export const RESTART_PAUSE_MS = 1_000;

export async function keepRunning(
  what: string,
  run: () => Promise<void>,
  opts: { readonly signal: AbortSignal; readonly logger: Logger; readonly pauseMs?: number },
): Promise<void> {
  const { signal, logger } = opts;
  while (!signal.aborted) {
    try {
      await run();
    } catch (err) {
      if (signal.aborted) return;
      logger.warn({ err }, `the ${what} stopped on an error; starting it again`);
    }
    if (signal.aborted) return;
    logger.info(`the ${what} stopped (its lock or its database went); starting it again`);
    await pause(opts.pauseMs ?? RESTART_PAUSE_MS, signal);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
