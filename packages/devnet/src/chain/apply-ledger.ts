// Applying a closing ledger's queued transactions: each in its own state overlay, in submission order, their
// contract events numbered for the event store.
import { StrKey, type xdr } from "@stellar/stellar-sdk";
import type { StoredEvent } from "./event-store.ts";
import type { LedgerTransactionRecord } from "./ledger-close.ts";
import { type LedgerState, StateOverlay } from "./ledger-state.ts";
import type { HostEnvironment } from "./soroban/host.ts";
import { type AppliedTransaction, applyTransaction, emptyMeta } from "./transactions/apply.ts";
import type { ParsedTransaction } from "./transactions/envelope.ts";
import { failureResult } from "./transactions/results.ts";

export interface LedgerApplication {
  readonly state: LedgerState;
  readonly sequence: number;
  readonly closeTime: number;
  readonly env: HostEnvironment;
  readonly nativeTokenId: string;
}

/** Applies `queue` in order; returns the ledger's transaction records, their events and the grown fee pool. */
export function applyQueue(
  queue: readonly ParsedTransaction[],
  ledger: LedgerApplication,
  feePool: bigint,
): { records: LedgerTransactionRecord[]; stored: StoredEvent[]; feePool: bigint } {
  const records: LedgerTransactionRecord[] = [];
  const stored: StoredEvent[] = [];
  for (const tx of queue) {
    const applied = applyGuarded(tx, ledger);
    feePool += applied.result.feeCharged;
    const applicationOrder = records.length + 1;
    records.push({ applied, hash: tx.hash, applicationOrder });
    applied.operationEvents.forEach((events, op) => {
      events.forEach((event, index) => {
        stored.push(storedEvent(event, applicationOrder, op, index, tx.hash));
      });
    });
  }
  return { records, stored, feePool };
}

/** A bug in a contract kind or in the devnet fails that one transaction (txINTERNAL_ERROR), not the ledger. */
function applyGuarded(
  tx: ParsedTransaction,
  { state, sequence, closeTime, env, nativeTokenId }: LedgerApplication,
): AppliedTransaction {
  const overlay = new StateOverlay(state);
  try {
    const applied = applyTransaction(tx, {
      state: overlay,
      ledgerSeq: sequence,
      closeTime: BigInt(closeTime),
      env,
      nativeTokenId,
    });
    overlay.commit();
    return applied;
  } catch (error) {
    console.error(`devnet: applying ${tx.hash} failed:`, error);
    return {
      tx,
      successful: false,
      result: failureResult(tx, { code: "txInternalError", inner: false }, 0n),
      meta: emptyMeta(),
      feeChanges: [],
      postFeeChanges: [],
      operationEvents: [],
      transactionEvents: [],
    };
  }
}

function storedEvent(
  event: xdr.ContractEvent,
  tx: number,
  op: number,
  index: number,
  txHash: string,
): StoredEvent {
  const body = event.body.value;
  return {
    type: event.type.name === "system" ? "system" : "contract",
    contractId: event.contractId === null ? "" : StrKey.encodeContract(event.contractId.value),
    topics: body.topics.map((t) => t.toXdr("base64")),
    value: body.data.toXdr("base64"),
    tx,
    op,
    event: index,
    txHash,
    inSuccessfulContractCall: true,
  };
}
