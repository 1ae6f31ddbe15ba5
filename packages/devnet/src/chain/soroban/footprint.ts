// The ledger footprint of an invocation: recorded during simulation, enforced when applied.
import { xdr } from "@stellar/stellar-sdk";
import { ledgerKeyId } from "../ledger-state.ts";
import { hostFailure } from "./host-error.ts";

export class Footprint {
  readonly #reads = new Map<string, xdr.LedgerKey>();
  readonly #writes = new Map<string, xdr.LedgerKey>();
  readonly #declaredReadOnly: ReadonlySet<string> | undefined;
  readonly #declaredReadWrite: ReadonlySet<string> | undefined;

  /** Without a declared footprint every access is allowed and recorded. */
  constructor(declared?: xdr.LedgerFootprint) {
    if (declared !== undefined) {
      this.#declaredReadOnly = new Set(declared.readOnly.map(ledgerKeyId));
      this.#declaredReadWrite = new Set(declared.readWrite.map(ledgerKeyId));
    }
  }

  read(id: string, key: xdr.LedgerKey): void {
    if (
      this.#declaredReadOnly !== undefined &&
      !this.#declaredReadOnly.has(id) &&
      !this.#declaredReadWrite?.has(id)
    ) {
      throw hostFailure(
        "Storage",
        "scecExceededLimit",
        "trying to access contract storage key outside of the footprint",
      );
    }
    if (!this.#writes.has(id)) this.#reads.set(id, key);
  }

  write(id: string, key: xdr.LedgerKey): void {
    if (this.#declaredReadWrite !== undefined && !this.#declaredReadWrite.has(id)) {
      throw hostFailure(
        "Storage",
        "scecExceededLimit",
        "trying to write contract storage key outside of the read-write footprint",
      );
    }
    this.#reads.delete(id);
    this.#writes.set(id, key);
  }

  get readEntries(): number {
    return this.#reads.size + this.#writes.size;
  }

  get writeEntries(): number {
    return this.#writes.size;
  }

  toXdr(): xdr.LedgerFootprint {
    return new xdr.LedgerFootprint({
      readOnly: [...this.#reads.values()],
      readWrite: [...this.#writes.values()],
    });
  }
}
