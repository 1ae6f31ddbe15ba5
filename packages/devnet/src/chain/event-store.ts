// Contract events indexed by ledger, so a getEvents page costs O(events in its window).
import { anyFilterMatches, type EventFilter, type EventType } from "./event-filter.ts";
import { compareCursors, type EventCursor } from "./toid.ts";

export interface StoredEvent {
  readonly type: EventType;
  readonly contractId: string;
  /** Topics and value as base64 ScVal XDR. */
  readonly topics: readonly string[];
  readonly value: string;
  readonly tx: number;
  readonly op: number;
  readonly event: number;
  /** Hex transaction hash; empty for synthetic events, whose hash is derived on read. */
  readonly txHash: string;
  readonly inSuccessfulContractCall: boolean;
}

export interface FoundEvent {
  readonly ledger: number;
  readonly closeTime: number;
  readonly stored: StoredEvent;
}

interface LedgerSlot {
  readonly closeTime: number;
  readonly events: readonly StoredEvent[];
}

export class EventStore {
  #base = 0;
  #slots: LedgerSlot[] = [];

  /** Records the events of a newly closed ledger; ledgers arrive in sequence order. */
  append(ledger: number, closeTime: number, events: readonly StoredEvent[]): void {
    if (this.#slots.length === 0) this.#base = ledger;
    const expected = this.#base + this.#slots.length;
    if (ledger !== expected) throw new Error(`event store expected ledger ${expected}, got ${ledger}`);
    this.#slots.push({ closeTime, events });
  }

  /** Forgets every ledger below `oldest`. */
  prune(oldest: number): void {
    const drop = Math.min(oldest - this.#base, this.#slots.length);
    if (drop <= 0) return;
    this.#slots.splice(0, drop);
    this.#base += drop;
  }

  eventsOf(ledger: number): readonly StoredEvent[] {
    return this.#slots[ledger - this.#base]?.events ?? [];
  }

  get count(): number {
    let n = 0;
    for (const slot of this.#slots) n += slot.events.length;
    return n;
  }

  /** Matching events from `start` (inclusive) up to `endLedger` (exclusive), at most `limit`. */
  scan(start: EventCursor, endLedger: number, filters: readonly EventFilter[], limit: number): FoundEvent[] {
    const found: FoundEvent[] = [];
    const first = Math.max(start.ledger, this.#base);
    const last = Math.min(endLedger, this.#base + this.#slots.length);
    for (let ledger = first; ledger < last; ledger++) {
      const slot = this.#slots[ledger - this.#base];
      if (slot === undefined) continue;
      for (const stored of slot.events) {
        if (ledger === start.ledger && compareCursors({ ledger, ...stored }, start) < 0) continue;
        if (!anyFilterMatches(filters, stored)) continue;
        found.push({ ledger, closeTime: slot.closeTime, stored });
        if (found.length >= limit) return found;
      }
    }
    return found;
  }
}
