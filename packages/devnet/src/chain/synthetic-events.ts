// Events added without a transaction (genesis constructors, scenario injection, bulk benchmark ledgers).
import { createHash } from "node:crypto";
import type { xdr } from "@stellar/stellar-sdk";
import type { StoredEvent } from "./event-store.ts";

export interface SyntheticEvent {
  readonly contractId: string;
  /** ScVals or their base64 XDR (pre-encoded input is stored as given, so bulk callers encode once). */
  readonly topics: readonly (xdr.ScVal | string)[];
  readonly value: xdr.ScVal | string;
  /** Events with the same `tx` key share a transaction; without one each event is its own transaction. */
  readonly tx?: number | string;
}

const encode = (v: xdr.ScVal | string): string => (typeof v === "string" ? v : v.toXdr("base64"));

/** Stores synthetic events after `firstTx - 1` real transactions of the ledger. */
export function toStoredEvents(events: readonly SyntheticEvent[], firstTx: number): StoredEvent[] {
  const txIndexes = new Map<number | string, number>();
  const eventCounts = new Map<number, number>();
  let next = firstTx;
  const stored: StoredEvent[] = new Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as SyntheticEvent;
    let tx: number;
    if (e.tx === undefined) tx = next++;
    else {
      let known = txIndexes.get(e.tx);
      if (known === undefined) {
        known = next++;
        txIndexes.set(e.tx, known);
      }
      tx = known;
    }
    const event = eventCounts.get(tx) ?? 0;
    eventCounts.set(tx, event + 1);
    stored[i] = {
      type: "contract",
      contractId: e.contractId,
      topics: e.topics.map(encode),
      value: encode(e.value),
      tx,
      op: 0,
      event,
      txHash: "",
      inSuccessfulContractCall: true,
    };
  }
  return stored;
}

/** Synthetic events have no transaction; a stable stand-in hash is derived from their position. */
export function syntheticTxHash(ledger: number, tx: number): string {
  // node:crypto rather than the SDK's hash: a 10,000-event page derives 10,000 of these.
  return createHash("sha256").update(`namereg-devnet-synthetic:${ledger}:${tx}`).digest("hex");
}
