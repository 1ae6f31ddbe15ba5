// The getEvents scan window and response cursor, following stellar-rpc's handler.
import { type EventCursor, maxCursorOfLedger, positionAfter } from "./toid.ts";

/** One request scans at most this many ledgers. */
export const LEDGER_SCAN_LIMIT = 10_000;

export interface LedgerRange {
  readonly oldest: number;
  readonly latest: number;
}

export interface WindowRequest {
  readonly startLedger?: number;
  readonly endLedger?: number;
  readonly cursor?: EventCursor;
}

export interface ScanWindow {
  /** First position scanned (inclusive). */
  readonly start: EventCursor;
  /** Ledger where the scan stops (exclusive). */
  readonly endLedger: number;
}

export class LedgerRangeError extends Error {}

export function scanWindow(request: WindowRequest, range: LedgerRange): ScanWindow {
  const start =
    request.cursor !== undefined
      ? positionAfter(request.cursor)
      : { ledger: request.startLedger ?? 0, tx: 0, op: 0, event: 0 };
  let endLedger = Math.min(start.ledger + LEDGER_SCAN_LIMIT, range.latest + 1);
  if (request.endLedger !== undefined && request.endLedger !== 0)
    endLedger = Math.min(request.endLedger, endLedger);
  if (start.ledger < range.oldest || start.ledger > range.latest) {
    throw new LedgerRangeError(
      `startLedger must be within the ledger range: ${range.oldest} - ${range.latest}`,
    );
  }
  return { start, endLedger };
}

/** A full page continues after its last event; otherwise the whole window counts as scanned. */
export function pageCursor(window: ScanWindow, limit: number, found: readonly EventCursor[]): EventCursor {
  const last = found[found.length - 1];
  if (found.length >= limit && last !== undefined) return last;
  return maxCursorOfLedger(window.endLedger - 1);
}
