// A namespace whose registrar has no subname interface (docs/contracts.md "Errors"), for tests of subnames_unsupported: the
// devnet's admin reserves `label` for `owner`, a `registrar_basic` is deployed for it and the owner attaches it;
// the owner then issues `holder` the name `name.label`.
import { AllocatorFns, namespaceNode, RegistrarFns, RegistryFns } from "@namereg/protocol";
import type { Keypair } from "@stellar/stellar-sdk";
import type { NamingDevnet } from "../naming-devnet.ts";
import { demoKeypair } from "./demo-keys.ts";
import { settlingWallet } from "./wallet.ts";

export async function namespaceWithoutSubnames(
  devnet: NamingDevnet,
  opts: { label: string; owner: Keypair; name: string; holder: Keypair },
): Promise<{ registrar: string }> {
  const wallet = settlingWallet(devnet);
  const { registry, allocator } = devnet.contracts;
  const node = namespaceNode(opts.label);
  await wallet.invoke(demoKeypair("admin"), allocator, AllocatorFns.reserve, {
    label: opts.label,
    owner: opts.owner.publicKey(),
  });
  const registrar = devnet.chain.deployGenesis(
    "registrar_basic",
    `namereg:registrar_basic:${opts.label}`,
    RegistrarFns.__constructor.encodeArgs({ registry, node }),
  );
  await wallet.invoke(opts.owner, registry, RegistryFns.attach_registrar, { node, registrar });
  await wallet.invoke(opts.owner, registrar, RegistrarFns.issue, {
    label: opts.name,
    holder: opts.holder.publicKey(),
    address: opts.holder.publicKey(),
    expiresAt: 0n,
  });
  return { registrar };
}
