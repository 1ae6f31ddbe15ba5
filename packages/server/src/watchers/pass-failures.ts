// How a watcher process logs a failed pass (runPasses retries it with a growing pause): a passing fault (an RPC or
// database hiccup) at warn with the pause, never an error line per poll; what needs a person at error, once.
import type { Logger } from "pino";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import { ChainBehindCursorError, ChainRefusedError, RetentionGapError } from "./retention-gap.ts";

export function logPassFailure(
  logger: Logger,
  what: string,
  metrics?: ServiceMetrics,
): (err: unknown, retryInMs: number) => void {
  return (err, retryInMs) => {
    metrics?.watcherPassFailures.inc({ watcher: what });
    if (err instanceof RetentionGapError) {
      // The first time it is recorded it needs a person; afterwards the same news at warn, as the pause grows.
      (err.firstSeen ? logger.error : logger.warn).call(logger, { gap: err.gap, retryInMs }, err.message);
      return;
    }
    if (err instanceof ChainBehindCursorError || err instanceof ChainRefusedError) {
      logger.error({ retryInMs }, err.message);
      return;
    }
    logger.warn({ err, retryInMs }, `${what} pass failed; retrying`);
  };
}
