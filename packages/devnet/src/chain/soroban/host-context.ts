// What the host hands a contract frame besides calls and auth: its contract storage (contract data entries of
// the invoked contract) and, for the native token, account balances. Both go through the host's entry access,
// so reads and writes stay in the frame's overlay and are metered and footprint-checked there.
import { xdr } from "@stellar/stellar-sdk";
import { ContractError, type ContractStorage } from "../../host/contract.ts";
import { accountKeyId, accountLedgerKey, availableBalance, withAccountChanges } from "../accounts.ts";
import type { EntryRecord } from "../ledger-state.ts";
import { ledgerKeyId } from "../ledger-state.ts";
import { contractDataKey, contractDataRecord } from "./contract-data.ts";
import { hostFailure } from "./host-error.ts";
import type { NativeBalances } from "./native-token.ts";

/** The entry access of the host (Host's public methods). */
export interface EntryAccess {
  readEntry(id: string, key: xdr.LedgerKey): EntryRecord | undefined;
  writeEntry(id: string, record: EntryRecord): void;
  removeEntry(id: string, key: xdr.LedgerKey): void;
}

export function isScVal(value: unknown): value is xdr.ScVal {
  return xdr.ScVal.is(value);
}

export function contractStorage(
  host: EntryAccess,
  contractId: string,
  ledgerSequence: number,
): ContractStorage {
  const dataKey = (key: xdr.ScVal) => {
    if (!isScVal(key)) throw hostFailure("Value", "scecUnexpectedType", "storage keys must be ScVals");
    const ledgerKey = contractDataKey(contractId, key);
    return { ledgerKey, id: ledgerKeyId(ledgerKey) };
  };
  const readData = (key: xdr.ScVal): xdr.ScVal | undefined => {
    const { ledgerKey, id } = dataKey(key);
    const record = host.readEntry(id, ledgerKey);
    return record?.data.type === "contractData" ? record.data.contractData.val : undefined;
  };
  return {
    get: readData,
    has: (key) => readData(key) !== undefined,
    set(key, value) {
      if (!isScVal(value)) throw hostFailure("Value", "scecUnexpectedType", "storage values must be ScVals");
      const { id } = dataKey(key);
      host.writeEntry(id, contractDataRecord(contractId, key, value, ledgerSequence));
    },
    remove(key) {
      const { ledgerKey, id } = dataKey(key);
      host.removeEntry(id, ledgerKey);
    },
  };
}

export function nativeBalances(host: EntryAccess, ledgerSequence: number): NativeBalances {
  const accountOf = (accountId: string): xdr.AccountEntry | undefined => {
    const record = host.readEntry(accountKeyId(accountId), accountLedgerKey(accountId));
    return record?.data.type === "account" ? record.data.account : undefined;
  };
  return {
    spendable(accountId) {
      const account = accountOf(accountId);
      return account === undefined ? undefined : availableBalance(account);
    },
    total: (accountId) => accountOf(accountId)?.balance,
    add(accountId, delta) {
      const account = accountOf(accountId);
      if (account === undefined) throw new ContractError(6, "account missing");
      const key = accountLedgerKey(accountId);
      host.writeEntry(accountKeyId(accountId), {
        key,
        data: xdr.LedgerEntryData.account(withAccountChanges(account, { balance: account.balance + delta })),
        lastModifiedLedgerSeq: ledgerSequence,
      });
    },
  };
}
