// The closed ledgers and applied transactions within the retention window, oldest first.
import type { TransactionRecord } from "./chain-types.ts";
import type { ClosedLedger, LedgerTransactionRecord } from "./ledger-close.ts";

export class LedgerHistory {
  readonly #ledgers: ClosedLedger[];
  #base: number;
  readonly #transactions = new Map<string, TransactionRecord>();

  constructor(genesis: ClosedLedger) {
    this.#ledgers = [genesis];
    this.#base = genesis.sequence;
  }

  /** The oldest ledger kept (the configured retention; shortened fault retention is the chain's view). */
  get base(): number {
    return this.#base;
  }

  get latest(): ClosedLedger {
    return this.#ledgers[this.#ledgers.length - 1] as ClosedLedger;
  }

  ledger(sequence: number): ClosedLedger | undefined {
    return this.#ledgers[sequence - this.#base];
  }

  hasTransaction(hash: string): boolean {
    return this.#transactions.has(hash);
  }

  transaction(hash: string): TransactionRecord | undefined {
    return this.#transactions.get(hash);
  }

  transactionsOf(ledger: ClosedLedger): TransactionRecord[] {
    return ledger.transactions.flatMap((t) => {
      const record = this.#transactions.get(t.hash);
      return record === undefined ? [] : [record];
    });
  }

  /** Appends a closed ledger and the records of the transactions applied in it. */
  append(ledger: ClosedLedger, records: readonly LedgerTransactionRecord[]): void {
    this.#ledgers.push(ledger);
    for (const record of records) {
      this.#transactions.set(record.hash, {
        hash: record.hash,
        ledger,
        applicationOrder: record.applicationOrder,
        applied: record.applied,
        envelopeXdr: record.applied.tx.envelopeXdr,
        resultXdr: record.applied.result.toXdr("base64"),
        resultMetaXdr: record.applied.meta.toXdr("base64"),
      });
    }
  }

  /** Drops what falls out of `retentionLedgers` with its transactions; false when nothing did. */
  prune(retentionLedgers: number): boolean {
    const oldestKept = this.latest.sequence - retentionLedgers + 1;
    const drop = oldestKept - this.#base;
    if (drop <= 0) return false;
    for (const ledger of this.#ledgers.slice(0, drop)) {
      for (const t of ledger.transactions) this.#transactions.delete(t.hash);
    }
    this.#ledgers.splice(0, drop);
    this.#base += drop;
    return true;
  }
}
