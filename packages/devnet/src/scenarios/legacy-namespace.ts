// A namespace allocated the legacy way (or, with `companion`, by a transitional registry emitting both layouts) (docs/contracts.md "Rules the indexer relies on"), for tests of hash-only
// history: the registry emits `ns(node)` without the label and keeps no label in its record, as registries did
// before the versioned events. The admin reserves `label` for `owner` while the registry's legacy flag is set;
// the owner then issues `holder` the name `name.label`, so the namespace has history an indexer can only name
// once it learns the label from verified discovery data.
import { AllocatorFns, nameNode, namespaceNode, RegistrarFns, RegistryFns } from "@namereg/protocol";
import { type Keypair, xdr } from "@stellar/stellar-sdk";
import { LEGACY_ALLOCATION_FLAG, TRANSITIONAL } from "../contracts/registry.ts";
import type { NamingDevnet } from "../naming-devnet.ts";
import { demoKeypair } from "./demo-keys.ts";
import { settlingWallet } from "./wallet.ts";

export interface LegacyNamespace {
  node: string;
  registrar: string;
  /** The node of `name.label`, issued after the allocation. */
  nameNode: string;
}

export async function legacyNamespace(
  devnet: NamingDevnet,
  opts: {
    label: string;
    owner: Keypair;
    name: string;
    holder: Keypair;
    /** A transitional registry: the legacy event is immediately followed by its `ns_v1` companion. */
    companion?: boolean;
  },
): Promise<LegacyNamespace> {
  const wallet = settlingWallet(devnet);
  const { registry, allocator } = devnet.contracts;
  const node = namespaceNode(opts.label);
  devnet.chain.writeContractData(
    registry,
    LEGACY_ALLOCATION_FLAG,
    opts.companion === true ? TRANSITIONAL : xdr.ScVal.scvBool(true),
  );
  try {
    await wallet.invoke(demoKeypair("admin"), allocator, AllocatorFns.reserve, {
      label: opts.label,
      owner: opts.owner.publicKey(),
    });
  } finally {
    devnet.chain.removeContractData(registry, LEGACY_ALLOCATION_FLAG);
  }
  const ns = await wallet.read(opts.owner.publicKey(), registry, RegistryFns.namespace, { node });
  if (ns === null) throw new Error(`legacy allocation of ${opts.label} left no record`);
  await wallet.invoke(opts.owner, ns.registrar, RegistrarFns.issue, {
    label: opts.name,
    holder: opts.holder.publicKey(),
    address: opts.holder.publicKey(),
    expiresAt: 0n,
  });
  return { node, registrar: ns.registrar, nameNode: nameNode(opts.name, opts.label) };
}
