// Contracts a transaction created, read from its TransactionMeta (created contract-instance entries). The
// indexer uses it to learn which registrar an allocation deployed: re-reading the namespace gives only the
// *current* registrar, which during a back-fill may be a later replacement.
import { StrKey, xdr } from "@stellar/stellar-sdk";
import type { RpcClient } from "./rpc-client.ts";

interface OperationChanges {
  changes: xdr.LedgerEntryChange[];
}

/** Contract ids whose instance entry the transaction created, or null when the RPC no longer has it. */
export async function contractsCreatedBy(rpc: RpcClient, txHash: string): Promise<string[] | null> {
  const tx = await rpc.call<{ status: string; resultMetaXdr?: string }>("getTransaction", { hash: txHash });
  if (tx.status !== "SUCCESS" || tx.resultMetaXdr === undefined) return null;
  let meta: xdr.TransactionMeta;
  try {
    meta = xdr.TransactionMeta.fromXDR(tx.resultMetaXdr, "base64");
  } catch {
    return null;
  }
  const body = meta as unknown as Record<string, { operations?: OperationChanges[] } | undefined>;
  const versioned = body.v4 ?? body.v3 ?? body.v2 ?? body.v1;
  const created: string[] = [];
  for (const op of versioned?.operations ?? []) {
    for (const change of op.changes) {
      if (change.type !== "ledgerEntryCreated") continue;
      const data = change.created.data;
      if (data.type !== "contractData" || data.contractData.key.type !== "scvLedgerKeyContractInstance")
        continue;
      const contract = data.contractData.contract;
      if (contract.type === "scAddressTypeContract") {
        created.push(StrKey.encodeContract(Buffer.from(contract.contractId.value)));
      }
    }
  }
  return created;
}
