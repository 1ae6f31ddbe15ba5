// Ledger entry changes and events as TransactionMeta records them.
import { StrKey, xdr } from "@stellar/stellar-sdk";
import type { EntryChange, EntryRecord } from "../ledger-state.ts";

export function toLedgerEntry(record: EntryRecord): xdr.LedgerEntry {
  return new xdr.LedgerEntry({
    lastModifiedLedgerSeq: record.lastModifiedLedgerSeq,
    data: record.data,
    ext: xdr.LedgerEntryExt.v0(),
  });
}

/** state + updated / created / state + removed, as core writes them. */
export function entryChangesXdr(changes: readonly EntryChange[]): xdr.LedgerEntryChange[] {
  const out: xdr.LedgerEntryChange[] = [];
  for (const { before, after } of changes) {
    if (before === undefined && after !== undefined) {
      out.push(xdr.LedgerEntryChange.ledgerEntryCreated(toLedgerEntry(after)));
    } else if (before !== undefined && after === undefined) {
      out.push(xdr.LedgerEntryChange.ledgerEntryState(toLedgerEntry(before)));
      out.push(xdr.LedgerEntryChange.ledgerEntryRemoved(before.key));
    } else if (before !== undefined && after !== undefined) {
      out.push(xdr.LedgerEntryChange.ledgerEntryState(toLedgerEntry(before)));
      out.push(xdr.LedgerEntryChange.ledgerEntryUpdated(toLedgerEntry(after)));
    }
  }
  return out;
}

export function contractEvent(contractId: string, topics: xdr.ScVal[], data: xdr.ScVal): xdr.ContractEvent {
  return new xdr.ContractEvent({
    ext: xdr.ExtensionPoint.v0(),
    contractId: new xdr.ContractId(StrKey.decodeContract(contractId)),
    type: xdr.ContractEventType.contract,
    body: xdr.ContractEventBody.v0(new xdr.ContractEventV0({ topics, data })),
  });
}
