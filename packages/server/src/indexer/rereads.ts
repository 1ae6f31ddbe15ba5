// Allocation and routing changes are followed by a re-read of the namespace's metadata (docs/contracts.md "Which
// contracts are followed"). Shared by the indexer loop and `namereg backfill`, which applies older events through the
// same path.
import { type Namespace, RegistryFns } from "@namereg/protocol";
import { ContractCallError, type ContractReader } from "../chain/contract-reader.ts";
import { contractsCreatedBy } from "../chain/created-contracts.ts";
import type { RpcClient } from "../chain/rpc-client.ts";
import type { IndexerCache } from "./cache.ts";
import type { IncomingEvent } from "./decode.ts";

/** Allocations, versioned and legacy: each is followed by a re-read of the namespace record. */
const ROUTING = new Set(["ns_v1", "ns"]);

export interface RereadDeps {
  reader: ContractReader;
  rpc: RpcClient;
  registryId: string;
  cache: IndexerCache;
}

export async function rereadNamespaces(
  deps: RereadDeps,
  batch: IncomingEvent[],
): Promise<Map<string, Namespace | null>> {
  const allocations = new Map<string, string>(); // node → transaction hash of its ns_v1
  for (const { row, decoded } of batch) {
    if (decoded.kind !== "naming" || deps.cache.contracts.get(row.contractId)?.role !== "registry") continue;
    const ev = decoded.event;
    if (ROUTING.has(ev.type) && "node" in ev) allocations.set(ev.node, row.txHash);
  }
  const out = new Map<string, Namespace | null>();
  for (const [node, txHash] of allocations) {
    let current: Namespace | null;
    try {
      current = await deps.reader.read(deps.registryId, RegistryFns.namespace, { node });
    } catch (err) {
      if (!(err instanceof ContractCallError)) throw err; // unreachable chain: retry the batch later
      current = null;
    }
    out.set(
      node,
      current === null
        ? null
        : { ...current, registrar: await allocatedRegistrar(deps.rpc, txHash, current) },
    );
  }
  return out;
}

/**
 * The registrar the allocation deployed: the contract its transaction created. The current metadata names the
 * registrar of today, which during a back-fill may be a replacement whose predecessor holds the early history.
 * Falls back to the current one when the transaction is out of the RPC's retention or is ambiguous.
 */
async function allocatedRegistrar(rpc: RpcClient, txHash: string, current: Namespace): Promise<string> {
  const created = await contractsCreatedBy(rpc, txHash).catch(() => null);
  if (created === null || created.includes(current.registrar) || created.length !== 1)
    return current.registrar;
  return created[0] ?? current.registrar;
}
