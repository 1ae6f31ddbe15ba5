// TOIDs and event cursors as stellar-rpc encodes them (ledger << 32 | tx << 12 | op, then "%019d-%010d").

export const TX_MASK = 0xfffff;
export const OP_MASK = 0xfff;
export const MAX_UINT32 = 0xffffffff;

export interface EventCursor {
  readonly ledger: number;
  /** 1-based transaction index inside the ledger. */
  readonly tx: number;
  /** 0-based operation index inside the transaction. */
  readonly op: number;
  /** 0-based event index inside the operation. */
  readonly event: number;
}

export function toid(ledger: number, tx: number, op: number): bigint {
  return (BigInt(ledger) << 32n) | (BigInt(tx & TX_MASK) << 12n) | BigInt(op & OP_MASK);
}

export function parseToid(id: bigint): { ledger: number; tx: number; op: number } {
  return {
    ledger: Number(id >> 32n),
    tx: Number((id >> 12n) & BigInt(TX_MASK)),
    op: Number(id & BigInt(OP_MASK)),
  };
}

export function formatEventId(c: EventCursor): string {
  return `${toid(c.ledger, c.tx, c.op).toString().padStart(19, "0")}-${c.event.toString().padStart(10, "0")}`;
}

/** The cursor stellar-rpc returns for "everything up to and including `ledger` was scanned". */
export function maxCursorOfLedger(ledger: number): EventCursor {
  return { ledger, tx: TX_MASK, op: OP_MASK, event: MAX_UINT32 };
}

export class CursorFormatError extends Error {}

export function parseEventCursor(text: string): EventCursor {
  const parts = text.split("-");
  const [id, event] = parts;
  if (
    parts.length !== 2 ||
    id === undefined ||
    event === undefined ||
    !/^\d+$/.test(id) ||
    !/^\d+$/.test(event)
  ) {
    throw new CursorFormatError(`invalid event id ${text}`);
  }
  const eventIndex = Number(event);
  const idValue = BigInt(id);
  if (eventIndex > MAX_UINT32 || idValue > 0x7fffffffffffffffn) {
    throw new CursorFormatError(`invalid event id ${text}`);
  }
  return { ...parseToid(idValue), event: eventIndex };
}

/**
 * The first position a page continues from after `cursor`: stellar-rpc increments the event index as a
 * uint32, so the maximal cursor wraps to event 0 of a transaction index no real event reaches.
 */
export function positionAfter(cursor: EventCursor): EventCursor {
  return { ...cursor, event: (cursor.event + 1) % (MAX_UINT32 + 1) };
}

export function compareCursors(a: EventCursor, b: EventCursor): number {
  return a.ledger - b.ledger || a.tx - b.tx || a.op - b.op || a.event - b.event;
}
