// Ledger entries keyed by the base64 XDR of their LedgerKey, with overlays that journal writes so a
// transaction, a contract call or a simulation can be committed or thrown away as a whole.
import type { xdr } from "@stellar/stellar-sdk";

export interface EntryRecord {
  readonly key: xdr.LedgerKey;
  readonly data: xdr.LedgerEntryData;
  readonly lastModifiedLedgerSeq: number;
  /** Contract entries only: the TTL the devnet reports (entries never expire here). */
  readonly liveUntilLedgerSeq?: number;
}

export interface StateReader {
  get(key: string): EntryRecord | undefined;
}

export interface StateStore extends StateReader {
  put(key: string, record: EntryRecord): void;
  remove(key: string): void;
}

export function ledgerKeyId(key: xdr.LedgerKey): string {
  return key.toXdr("base64");
}

export class LedgerState implements StateStore {
  readonly #entries = new Map<string, EntryRecord>();

  get(key: string): EntryRecord | undefined {
    return this.#entries.get(key);
  }

  put(key: string, record: EntryRecord): void {
    this.#entries.set(key, record);
  }

  remove(key: string): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}

export interface EntryChange {
  readonly key: string;
  readonly before: EntryRecord | undefined;
  readonly after: EntryRecord | undefined;
}

export class StateOverlay implements StateStore {
  readonly #parent: StateStore;
  /** `null` marks a removal. Insertion order is the order of first write. */
  readonly #writes = new Map<string, EntryRecord | null>();

  constructor(parent: StateStore) {
    this.#parent = parent;
  }

  get(key: string): EntryRecord | undefined {
    const written = this.#writes.get(key);
    if (written !== undefined) return written ?? undefined;
    return this.#parent.get(key);
  }

  put(key: string, record: EntryRecord): void {
    this.#writes.set(key, record);
  }

  remove(key: string): void {
    this.#writes.set(key, null);
  }

  /** Writes, each with the parent's value before it, skipping writes that end where they started. */
  changes(): EntryChange[] {
    const out: EntryChange[] = [];
    for (const [key, written] of this.#writes) {
      const before = this.#parent.get(key);
      const after = written ?? undefined;
      if (before === undefined && after === undefined) continue;
      out.push({ key, before, after });
    }
    return out;
  }

  commit(): void {
    for (const [key, written] of this.#writes) {
      if (written === null) this.#parent.remove(key);
      else this.#parent.put(key, written);
    }
    this.#writes.clear();
  }
}
