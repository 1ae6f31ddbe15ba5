// Classic account entries: keys, creation, balance and sequence updates, reserve rules.
import { Keypair, StrKey, xdr } from "@stellar/stellar-sdk";
import { type EntryRecord, ledgerKeyId, type StateReader, type StateStore } from "./ledger-state.ts";

/** 0.5 XLM in stroops. */
export const BASE_RESERVE = 5_000_000n;
export const BASE_FEE = 100;
export const STROOPS_PER_XLM = 10_000_000n;

export function accountLedgerKey(accountId: string): xdr.LedgerKey {
  return xdr.LedgerKey.account(
    new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(accountId).xdrPublicKey() }),
  );
}

const keyIdCache = new Map<string, string>();

/** State key of an account; cached because every payment and fee touches it. */
export function accountKeyId(accountId: string): string {
  let id = keyIdCache.get(accountId);
  if (id === undefined) {
    id = ledgerKeyId(accountLedgerKey(accountId));
    if (keyIdCache.size > 100_000) keyIdCache.clear();
    keyIdCache.set(accountId, id);
  }
  return id;
}

export function publicKeyToAccountId(key: xdr.PublicKey): string {
  return StrKey.encodeEd25519PublicKey(key.value.value);
}

/** The G address behind a (possibly muxed) account. */
export function muxedToAccountId(account: xdr.MuxedAccount): string {
  if (account.type === "keyTypeEd25519") return StrKey.encodeEd25519PublicKey(account.ed25519.value);
  return StrKey.encodeEd25519PublicKey(account.med25519.ed25519.value);
}

export function newAccountEntry(accountId: string, balance: bigint, seqNum: bigint): xdr.AccountEntry {
  return new xdr.AccountEntry({
    accountId: Keypair.fromPublicKey(accountId).xdrPublicKey(),
    balance,
    seqNum,
    numSubEntries: 0,
    inflationDest: null,
    flags: 0,
    homeDomain: "",
    thresholds: new Uint8Array([1, 0, 0, 0]),
    signers: [],
    ext: xdr.AccountEntryExt.v0(),
  });
}

export function withAccountChanges(
  entry: xdr.AccountEntry,
  changes: { balance?: bigint; seqNum?: bigint },
): xdr.AccountEntry {
  return new xdr.AccountEntry({
    accountId: entry.accountId,
    balance: changes.balance ?? entry.balance,
    seqNum: changes.seqNum ?? entry.seqNum,
    numSubEntries: entry.numSubEntries,
    inflationDest: entry.inflationDest,
    flags: entry.flags,
    homeDomain: entry.homeDomain,
    thresholds: entry.thresholds,
    signers: entry.signers,
    ext: entry.ext,
  });
}

export function readAccount(state: StateReader, accountId: string): xdr.AccountEntry | undefined {
  const record = state.get(accountKeyId(accountId));
  if (record === undefined || record.data.type !== "account") return undefined;
  return record.data.account;
}

export function writeAccount(
  state: StateStore,
  accountId: string,
  entry: xdr.AccountEntry,
  ledgerSeq: number,
): void {
  const record: EntryRecord = {
    key: accountLedgerKey(accountId),
    data: xdr.LedgerEntryData.account(entry),
    lastModifiedLedgerSeq: ledgerSeq,
  };
  state.put(accountKeyId(accountId), record);
}

export function minimumBalance(entry: xdr.AccountEntry): bigint {
  return (2n + BigInt(entry.numSubEntries)) * BASE_RESERVE;
}

/** Balance that can be spent without going below the reserve. */
export function availableBalance(entry: xdr.AccountEntry): bigint {
  return entry.balance - minimumBalance(entry);
}
