// The bulk scenario: namespaces allocated through the real contracts, then a large number of `name_v1` issue
// events appended as synthetic ledgers, for ingest and resolve benchmarks. The bulk names exist as events
// (what the indexer mirrors), not in registrar storage: contract reads of them answer "not found".
import { AllocatorFns, namespaceNode, RegistryFns } from "@namereg/protocol";
import { sha256 } from "@noble/hashes/sha2.js";
import { Keypair } from "@stellar/stellar-sdk";
import type { Chain } from "../chain/chain.ts";
import type { SyntheticEvent } from "../chain/synthetic-events.ts";
import { encodeNameIssue, fastChildNode, rawAccountKey } from "./bulk-encoding.ts";
import type { NamingContracts } from "./demo.ts";
import { demoKeypair } from "./demo-keys.ts";

export interface BulkOptions {
  /** Namespaces `bulk0` … allocated through the allocator. */
  namespaces: number;
  /** Total events, the namespaces' `ns_v1` included. */
  events: number;
  eventsPerLedger: number;
  /** Distinct holder accounts the names are spread over. */
  holders: number;
}

export interface BulkSummary {
  namespaces: { label: string; node: string; registrar: string }[];
  events: number;
  names: number;
  firstLedger: number;
  lastLedger: number;
  seconds: number;
}

export const DEFAULT_BULK: BulkOptions = {
  namespaces: 10,
  events: 1_000_000,
  eventsPerLedger: 5_000,
  holders: 1_000,
};

export function bulkHolder(i: number): Keypair {
  return Keypair.fromRawEd25519Seed(
    Buffer.from(sha256(new TextEncoder().encode(`namereg-bulk-holder:${i}`))),
  );
}

export function runBulkScenario(
  chain: Chain,
  contracts: NamingContracts,
  opts: Partial<BulkOptions> = {},
): BulkSummary {
  const o = { ...DEFAULT_BULK, ...opts };
  if (o.namespaces < 1 || o.events < o.namespaces || o.eventsPerLedger < 1 || o.holders < 1) {
    throw new RangeError("bulk: need ≥1 namespace, events ≥ namespaces, ≥1 event per ledger and ≥1 holder");
  }
  const started = performance.now();
  const owner = demoKeypair("admin").publicKey();
  const namespaces = Array.from({ length: o.namespaces }, (_, i) => {
    const label = `bulk${i}`;
    chain.invokePrivileged(contracts.allocator, "reserve", AllocatorFns.reserve.encodeArgs({ label, owner }));
    const node = namespaceNode(label);
    const ns = RegistryFns.namespace.returns.decode(
      chain.invokePrivileged(contracts.registry, "namespace", RegistryFns.namespace.encodeArgs({ node })),
    );
    if (ns === null) throw new Error(`bulk: ${label} was not allocated`);
    return { label, node, registrar: ns.registrar, nodeBytes: Buffer.from(node, "hex") };
  });
  const firstLedger = chain.closeLedger().sequence;

  const holders = Array.from({ length: o.holders }, (_, i) => rawAccountKey(bulkHolder(i).publicKey()));
  const names = o.events - o.namespaces;
  let lastLedger = firstLedger;
  for (let start = 0; start < names; start += o.eventsPerLedger) {
    const batch: SyntheticEvent[] = [];
    const end = Math.min(names, start + o.eventsPerLedger);
    for (let i = start; i < end; i++) {
      const ns = namespaces[i % namespaces.length] as (typeof namespaces)[number];
      const label = `n${i}`;
      const holder = holders[i % holders.length] as Uint8Array;
      const { topics, value } = encodeNameIssue(
        fastChildNode(ns.nodeBytes, label),
        1n,
        label,
        holder,
        holder,
        0n,
      );
      batch.push({ contractId: ns.registrar, topics, value });
    }
    lastLedger = chain.appendSyntheticLedger(batch).sequence;
  }
  return {
    namespaces: namespaces.map(({ label, node, registrar }) => ({ label, node, registrar })),
    events: o.events,
    names,
    firstLedger,
    lastLedger,
    seconds: (performance.now() - started) / 1000,
  };
}
