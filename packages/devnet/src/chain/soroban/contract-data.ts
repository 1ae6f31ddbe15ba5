// Contract storage as real ContractData ledger entries (instance and persistent/temporary data).
import { xdr } from "@stellar/stellar-sdk";
import type { EntryRecord } from "../ledger-state.ts";
import { scAddressOf } from "./contract-ids.ts";

/** Mainnet's minimum TTLs; entries never expire on the devnet, the TTL is only reported. */
export const PERSISTENT_TTL = 2_073_600;
export const TEMPORARY_TTL = 17_280;

export type Durability = "persistent" | "temporary";

export function contractDataKey(
  contractId: string,
  key: xdr.ScVal,
  durability: Durability = "persistent",
): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: scAddressOf(contractId),
      key,
      durability: xdr.ContractDataDurability[durability],
    }),
  );
}

export function instanceKey(contractId: string): xdr.LedgerKey {
  return contractDataKey(contractId, xdr.ScVal.scvLedgerKeyContractInstance());
}

export function contractDataRecord(
  contractId: string,
  key: xdr.ScVal,
  val: xdr.ScVal,
  ledgerSeq: number,
  durability: Durability = "persistent",
  liveUntilLedgerSeq?: number,
): EntryRecord {
  return {
    key: contractDataKey(contractId, key, durability),
    data: xdr.LedgerEntryData.contractData(
      new xdr.ContractDataEntry({
        ext: xdr.ExtensionPoint.v0(),
        contract: scAddressOf(contractId),
        key,
        durability: xdr.ContractDataDurability[durability],
        val,
      }),
    ),
    lastModifiedLedgerSeq: ledgerSeq,
    liveUntilLedgerSeq:
      liveUntilLedgerSeq ?? ledgerSeq + (durability === "persistent" ? PERSISTENT_TTL : TEMPORARY_TTL),
  };
}

export function instanceRecord(
  contractId: string,
  executable: xdr.ContractExecutable,
  ledgerSeq: number,
): EntryRecord {
  const instance = xdr.ScVal.scvContractInstance(new xdr.ScContractInstance({ executable, storage: null }));
  return contractDataRecord(contractId, xdr.ScVal.scvLedgerKeyContractInstance(), instance, ledgerSeq);
}

/** The executable stored in an instance entry, or undefined when the record is not an instance. */
export function executableOf(record: EntryRecord | undefined): xdr.ContractExecutable | undefined {
  if (record === undefined || record.data.type !== "contractData") return undefined;
  const val = record.data.contractData.val;
  if (val.type !== "scvContractInstance") return undefined;
  return val.instance.executable;
}
