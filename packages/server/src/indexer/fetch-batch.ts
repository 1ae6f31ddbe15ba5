// Fetches the next batch of a stream: getEvents pages followed through their cursors until the batch ends
// on a ledger boundary, so that a ledger cut by a page limit (or by a truncating RPC) is never half-applied.
import {
  type EventFilter,
  type EventsPage,
  ledgerOfCursor,
  type RawEvent,
  type RpcClient,
} from "../chain/rpc-client.ts";

export const MAX_FILTERS = 5;
export const MAX_IDS_PER_FILTER = 5;
export const MAX_CONTRACTS_PER_STREAM = MAX_FILTERS * MAX_IDS_PER_FILTER;

export interface StreamPosition {
  /** First ledger not yet fully applied. */
  nextLedger: number;
  /** Cursor after the last applied event, when the stream stopped inside a ledger or at a page end. */
  cursor: string | null;
}

export interface Batch {
  events: RawEvent[];
  /** Where the stream continues after this batch is applied. */
  next: StreamPosition;
  latestLedger: number;
  oldestLedger: number;
  /** True when a single ledger held more events than the buffer cap and had to be applied in parts. */
  partialLedger: boolean;
}

export function filtersFor(contractIds: readonly string[]): EventFilter[] {
  if (contractIds.length > MAX_CONTRACTS_PER_STREAM) {
    throw new RangeError(`a stream follows at most ${MAX_CONTRACTS_PER_STREAM} contracts`);
  }
  const filters: EventFilter[] = [];
  for (let i = 0; i < contractIds.length; i += MAX_IDS_PER_FILTER) {
    filters.push({ type: "contract", contractIds: contractIds.slice(i, i + MAX_IDS_PER_FILTER) });
  }
  return filters;
}

/** A getEvents cursor that closes its ledger: every later event of that ledger has been returned. */
export function closesLedger(cursor: string): boolean {
  const toid = cursor.split("-")[0];
  return toid !== undefined && (BigInt(toid) & 0xffff_ffffn) === 0xffff_ffffn;
}

export async function fetchBatch(
  rpc: RpcClient,
  contractIds: readonly string[],
  from: StreamPosition,
  opts: { limit?: number; maxBuffered?: number } = {},
): Promise<Batch> {
  const limit = opts.limit ?? 10_000;
  const maxBuffered = opts.maxBuffered ?? 50_000;
  const filters = filtersFor(contractIds);
  const collected: RawEvent[] = [];
  let cursor = from.cursor;
  for (;;) {
    const page: EventsPage =
      cursor === null
        ? await rpc.getEvents({ startLedger: from.nextLedger, filters, limit })
        : await rpc.getEvents({ cursor, filters, limit });
    collected.push(...page.events);
    const base = { latestLedger: page.latestLedger, oldestLedger: page.oldestLedger, partialLedger: false };
    if (closesLedger(page.cursor)) {
      return {
        ...base,
        events: collected,
        next: { nextLedger: ledgerOfCursor(page.cursor) + 1, cursor: page.cursor },
      };
    }
    const last = collected.at(-1);
    if (last === undefined) {
      // An empty page whose cursor stops inside a ledger: nothing to apply; continue from it next time.
      return { ...base, events: [], next: { nextLedger: ledgerOfCursor(page.cursor), cursor: page.cursor } };
    }
    const lastLedger = last.ledger;
    let cut = collected.length;
    while (cut > 0 && (collected[cut - 1] as RawEvent).ledger === lastLedger) cut--;
    if (cut > 0) {
      const complete = collected.slice(0, cut);
      const boundary = complete.at(-1) as RawEvent;
      return { ...base, events: complete, next: { nextLedger: lastLedger, cursor: boundary.id } };
    }
    if (collected.length >= maxBuffered) {
      // One ledger with more events than we buffer: apply what we have and mark it (never silently).
      return {
        ...base,
        partialLedger: true,
        events: collected,
        next: { nextLedger: lastLedger, cursor: last.id },
      };
    }
    cursor = page.cursor;
  }
}
