// The demo scenario of docs/design.md, built on chain by real signed transactions through the RPC, as wallets would:
// namespaces acme, plain and forsale; names alice, bob, old, gone and carol; subnames; records; a primary name;
// network addresses; claims newco (announced), contested (objected) and winner (awarded); a 100 XLM fee policy.
// History is laid down in the past (ledgers closed at earlier times) so that `old.acme` has really expired.
import {
  AllocatorFns,
  type ArgSpec,
  type ArgValues,
  type FnDef,
  LookupFns,
  nameNode,
  namespaceNode,
  PrimaryFns,
  RegistrarFns,
  RegistryFns,
  ResolverFns,
  xlmToStroops,
} from "@namereg/protocol";
import type { Keypair } from "@stellar/stellar-sdk";
import { type DemoRole, demoAccounts } from "./demo-keys.ts";
import { Wallet } from "./wallet.ts";

/** What the scenario needs from a devnet: an RPC, funding, on-demand ledgers with chosen close times. */
export interface ScenarioChain {
  rpcUrl: string;
  networkPassphrase: string;
  /** Close time (unix s) of the latest closed ledger. */
  latestCloseTime(): bigint;
  closeLedger(opts?: { closeTime?: bigint }): Promise<void> | void;
  fund(publicKey: string): Promise<void>;
  nativeTokenId: string;
  contracts: NamingContracts;
}

export interface NamingContracts {
  registry: string;
  allocator: string;
  lookup: string;
  primary: string;
}

export interface DemoNamespace {
  label: string;
  node: string;
  owner: string;
  registrar: string;
  resolver: string | null;
}

export interface DemoManifest {
  accounts: Record<DemoRole, { publicKey: string; secret: string }>;
  contracts: NamingContracts & { nativeToken: string };
  namespaces: Record<"acme" | "plain" | "forsale" | "winner", DemoNamespace>;
  claims: { newco: bigint; contested: bigint; winner: bigint };
  feeStroops: bigint;
  names: string[];
}

export const DEMO_FEE_XLM = "100";
export const DEMO_ETHEREUM = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
export const DEMO_TEXT = {
  avatar: "https://avatars.example/alice.png",
  url: "https://alice.example",
} as const;
export const DEMO_MEMO = "acme-alice";
const DAY = 86_400n;
const STEP_SECONDS = 5n;

/**
 * Runs the scenario. The chain must close ledgers only on demand while it runs; the history starts
 * `historyDays` before now and the last ledger closes at the current time.
 */
export async function runDemoScenario(
  chain: ScenarioChain,
  opts: { historyDays?: number } = {},
): Promise<DemoManifest> {
  const now = BigInt(Math.floor(Date.now() / 1000));
  let clock = now - BigInt(opts.historyDays ?? 3) * DAY;
  if (clock <= chain.latestCloseTime()) clock = chain.latestCloseTime() + 1n;
  const start = clock;
  const wallet = new Wallet({
    rpcUrl: chain.rpcUrl,
    networkPassphrase: chain.networkPassphrase,
    settle: async () => {
      clock += STEP_SECONDS;
      await chain.closeLedger({ closeTime: clock });
    },
  });
  const k = demoAccounts();
  for (const kp of Object.values(k)) await chain.fund(kp.publicKey());
  clock += STEP_SECONDS;
  await chain.closeLedger({ closeTime: clock });

  const { registry, allocator, lookup, primary } = chain.contracts;
  const call = <A extends ArgSpec, R>(
    signer: Keypair,
    contract: string,
    fn: FnDef<A, R>,
    args: ArgValues<A>,
  ) => wallet.invoke(signer, contract, fn, args);

  const feeStroops = xlmToStroops(DEMO_FEE_XLM);
  await call(k.admin, allocator, AllocatorFns.set_fee_policy, {
    token: chain.nativeTokenId,
    amount: feeStroops,
    recipient: k.treasury.publicKey(),
  });

  // Namespaces reserved by the operator (no claim fee: docs/api.md "Claim fee").
  for (const [label, owner] of [
    ["acme", k.acme],
    ["plain", k.plain],
    ["forsale", k.seller],
  ] as const) {
    await call(k.admin, allocator, AllocatorFns.reserve, { label, owner: owner.publicKey() });
  }
  const namespaceOf = async (label: string) => {
    const ns = await wallet.read(k.admin.publicKey(), registry, RegistryFns.namespace, {
      node: namespaceNode(label),
    });
    if (ns === null) throw new Error(`demo: namespace ${label} missing after allocation`);
    return ns;
  };

  // acme: resolver, networks, names.
  const acmeNode = namespaceNode("acme");
  const { value: acmeResolver } = await call(k.acme, registry, RegistryFns.deploy_resolver, {
    node: acmeNode,
  });
  await call(k.acme, acmeResolver, ResolverFns.set_chain_policy, { networks: ["ethereum", "bitcoin"] });
  const acme = await namespaceOf("acme");
  const issue = (
    label: string,
    holder: Keypair,
    expiresAt: bigint,
    owner = k.acme,
    registrar = acme.registrar,
  ) =>
    call(owner, registrar, RegistrarFns.issue, {
      label,
      holder: holder.publicKey(),
      address: holder.publicKey(),
      expiresAt,
    });
  await issue("alice", k.alice, 0n);
  await issue("bob", k.bob, now + 365n * DAY);
  await issue("old", k.bob, start + DAY);
  await issue("gone", k.bob, 0n);
  await call(k.acme, acme.registrar, RegistrarFns.reclaim, { label: "gone" });

  // alice's records, primary name, display name and network address.
  const alice = k.alice.publicKey();
  const aliceNode = nameNode("alice", "acme");
  await call(k.alice, acmeResolver, ResolverFns.set_payment, {
    node: aliceNode,
    address: alice,
    memo: DEMO_MEMO,
  });
  for (const [key, value] of Object.entries(DEMO_TEXT)) {
    await call(k.alice, acmeResolver, ResolverFns.set_text, { node: aliceNode, key, value });
  }
  await call(k.alice, acmeResolver, ResolverFns.set_chain_address, {
    node: aliceNode,
    network: "ethereum",
    address: DEMO_ETHEREUM,
  });
  await call(k.alice, primary, PrimaryFns.set_primary, { address: alice, name: "alice.acme" });
  await call(k.alice, acmeResolver, ResolverFns.set_display_name, { address: alice, node: aliceNode });

  // Subnames: pay.alice.acme active, old.alice.acme removed.
  const parent = { label: "alice", parentGeneration: 1n };
  await call(k.alice, acme.registrar, RegistrarFns.create_subname, {
    ...parent,
    child: "pay",
    generation: null,
    address: alice,
  });
  await call(k.alice, acme.registrar, RegistrarFns.create_subname, {
    ...parent,
    child: "old",
    generation: null,
    address: alice,
  });
  await call(k.alice, acme.registrar, RegistrarFns.remove_subname, {
    ...parent,
    child: "old",
    generation: 1n,
  });

  // plain: no resolver, subname creation disabled, carol.plain.
  const plain = await namespaceOf("plain");
  await call(k.plain, plain.registrar, RegistrarFns.set_subname_policy, { policy: "creation_disabled" });
  await issue("carol", k.carol, 0n, k.plain, plain.registrar);
  const forsale = await namespaceOf("forsale");

  // Claims: newco announced, contested objected, winner awarded.
  const quote = { token: chain.nativeTokenId, amount: feeStroops, recipient: k.treasury.publicKey() };
  const announce = (claimant: Keypair, label: string, basis: string[]) =>
    call(claimant, allocator, AllocatorFns.announce, {
      claimant: claimant.publicKey(),
      label,
      basis,
      evidence: [{ label: "Trademark registration", url: `https://evidence.example/${label}` }],
      fee: quote,
    });
  const { value: newco } = await announce(k.newco, "newco", ["trademark"]);
  const { value: contested } = await announce(k.contested, "contested", ["trademark"]);
  await call(k.objector, allocator, AllocatorFns.object, {
    objector: k.objector.publicKey(),
    id: contested,
    basis: ["prior_use"],
    bond: xlmToStroops("10"),
  });
  const { value: winner } = await announce(k.winner, "winner", ["brand"]);
  await call(k.admin, allocator, AllocatorFns.award, { id: winner });
  const winnerNs = await namespaceOf("winner");

  // acme is locked last: no registrar or resolver replacement and no reclaim of a live name from here on, so its
  // names without expiry (alice.acme) are permanent; issuing names there still works.
  await call(k.acme, registry, RegistryFns.lock, { node: acmeNode });

  // The present: one more ledger at the current time, after which ledgers may close on their own clock.
  await chain.closeLedger({ closeTime: BigInt(Math.max(Number(now), Number(clock) + 1)) });
  await wallet.read(alice, lookup, LookupFns.lookup, { name: "alice.acme" });

  const ns = (
    label: string,
    owner: Keypair,
    n: { registrar: string; resolver: string | null },
  ): DemoNamespace => ({
    label,
    node: namespaceNode(label),
    owner: owner.publicKey(),
    registrar: n.registrar,
    resolver: n.resolver,
  });
  return {
    accounts: Object.fromEntries(
      Object.entries(k).map(([role, kp]) => [role, { publicKey: kp.publicKey(), secret: kp.secret() }]),
    ) as DemoManifest["accounts"],
    contracts: { ...chain.contracts, nativeToken: chain.nativeTokenId },
    namespaces: {
      acme: ns("acme", k.acme, { registrar: acme.registrar, resolver: acmeResolver }),
      plain: ns("plain", k.plain, plain),
      forsale: ns("forsale", k.seller, forsale),
      winner: ns("winner", k.winner, winnerNs),
    },
    claims: { newco, contested, winner },
    feeStroops,
    names: [
      "alice.acme",
      "bob.acme",
      "old.acme",
      "gone.acme",
      "carol.plain",
      "pay.alice.acme",
      "old.alice.acme",
    ],
  };
}
