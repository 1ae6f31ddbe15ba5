// Back-fill progress: ledgers, events per second and an ETA. On a terminal one status line is redrawn in
// place; otherwise a structured log line is written at most every few seconds, so logs stay readable.
import type { Logger } from "pino";
import type { BatchInfo } from "../indexer/indexer.ts";

export interface ProgressOptions {
  logger: Logger;
  tty?: boolean;
  write?: (line: string) => void;
  intervalMs?: number;
  now?: () => number;
}

export function progressReporter(opts: ProgressOptions): (info: BatchInfo) => void {
  const now = opts.now ?? (() => performance.now());
  const tty = opts.tty ?? process.stderr.isTTY === true;
  const write = opts.write ?? ((line: string) => process.stderr.write(line));
  const interval = opts.intervalMs ?? 5000;
  const started = now();
  let events = 0;
  let archived = 0;
  let lastLog = Number.NEGATIVE_INFINITY;
  let firstLedger: number | null = null;
  // At the head every new ledger is a batch with nothing left: say "caught up" once, when it happens, not per
  // ledger (one line a ledger is noise in an idle indexer's log); falling behind again reports progress again.
  let caughtUp = false;
  return (info) => {
    events += info.events;
    archived += info.archived;
    firstLedger ??= info.fromLedger;
    const elapsed = Math.max((now() - started) / 1000, 1e-3);
    const done = Math.max(info.nextLedger - firstLedger, 0);
    const remaining = Math.max(info.latestLedger + 1 - info.nextLedger, 0);
    const ledgersPerSecond = done / elapsed;
    const eta = remaining === 0 ? 0 : ledgersPerSecond > 0 ? remaining / ledgersPerSecond : null;
    const fields = {
      ledger: info.nextLedger - 1,
      head: info.latestLedger,
      remainingLedgers: remaining,
      events,
      archived,
      eventsPerSecond: Math.round(events / elapsed),
      etaSeconds: eta === null ? null : Math.round(eta),
      deadLettered: info.deadLettered,
    };
    if (remaining === 0 && caughtUp) return;
    caughtUp = remaining === 0;
    if (tty) {
      const etaText = eta === null ? "?" : `${Math.round(eta)} s`;
      write(
        `\rindexing ledger ${fields.ledger}/${fields.head}  ${events} events  ${fields.eventsPerSecond} ev/s  ETA ${etaText}   `,
      );
      if (remaining === 0) write("\n");
      return;
    }
    if (remaining === 0 || now() - lastLog >= interval) {
      lastLog = now();
      opts.logger.info({ progress: fields }, remaining === 0 ? "indexer caught up" : "indexer back-filling");
    }
  };
}
