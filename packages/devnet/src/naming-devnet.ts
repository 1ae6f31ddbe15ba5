// A devnet running the naming system: the contract kinds registered, the singleton contracts deployed at
// genesis with ids known in advance (they name each other in their constructors), then a scenario.
import { AllocatorFns, LookupFns, PrimaryFns, RegistryFns } from "@namereg/protocol";
import type { Chain } from "./chain/chain.ts";
import { allocatorContract } from "./contracts/allocator.ts";
import { lookupContract } from "./contracts/lookup.ts";
import { primaryContract } from "./contracts/primary.ts";
import { basicRegistrarContract, registrarContract } from "./contracts/registrar.ts";
import { registryContract } from "./contracts/registry.ts";
import { resolverContract } from "./contracts/resolver.ts";
import { type Devnet, type DevnetOptions, startDevnet } from "./devnet.ts";
import { type BulkOptions, type BulkSummary, runBulkScenario } from "./scenarios/bulk.ts";
import { type DemoManifest, type NamingContracts, runDemoScenario } from "./scenarios/demo.ts";
import { demoKeypair } from "./scenarios/demo-keys.ts";

export const NAMING_KINDS = [
  registryContract,
  registrarContract,
  basicRegistrarContract,
  resolverContract,
  lookupContract,
  primaryContract,
  allocatorContract,
] as const;

export const SCENARIOS = ["none", "demo", "bulk"] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

const DAY = 86_400;

export interface NamingDevnetOptions extends DevnetOptions {
  scenario?: ScenarioName;
  bulk?: Partial<BulkOptions>;
  /** Claim window and grace of the allocator (seconds). */
  claimWindowSeconds?: number;
  claimGraceSeconds?: number;
}

export interface NamingDevnet extends Devnet {
  readonly contracts: NamingContracts & { nativeToken: string };
  /** First ledger that can hold the naming contracts' events (their deployment ledger for the indexer). */
  readonly deploymentLedger: number;
  /** Admin of the registry, allocator and lookup (a well-known development key). */
  readonly adminPublicKey: string;
  readonly demo?: DemoManifest;
  readonly bulk?: BulkSummary;
}

/** Deploys registry, allocator, lookup and primary at genesis; every kind of the system is registered. */
export function deployNamingContracts(
  chain: Chain,
  admin: string,
  opts: { windowSeconds?: number; graceSeconds?: number } = {},
): NamingContracts {
  for (const kind of NAMING_KINDS) chain.registerKind(kind);
  const salts = {
    registry: "namereg:registry",
    allocator: "namereg:allocator",
    lookup: "namereg:lookup",
    primary: "namereg:primary",
  };
  const ids = {
    registry: chain.genesisContractId(salts.registry),
    allocator: chain.genesisContractId(salts.allocator),
    lookup: chain.genesisContractId(salts.lookup),
    primary: chain.genesisContractId(salts.primary),
  };
  chain.deployGenesis(
    "registry",
    salts.registry,
    RegistryFns.__constructor.encodeArgs({ admin, allocator: ids.allocator }),
  );
  chain.deployGenesis(
    "allocator",
    salts.allocator,
    AllocatorFns.__constructor.encodeArgs({
      admin,
      registry: ids.registry,
      windowSeconds: BigInt(opts.windowSeconds ?? 7 * DAY),
      graceSeconds: BigInt(opts.graceSeconds ?? 7 * DAY),
    }),
  );
  chain.deployGenesis(
    "lookup",
    salts.lookup,
    LookupFns.__constructor.encodeArgs({ admin, registry: ids.registry }),
  );
  chain.deployGenesis("primary", salts.primary, PrimaryFns.__constructor.encodeArgs({ lookup: ids.lookup }));
  return ids;
}

export async function startNamingDevnet(opts: NamingDevnetOptions = {}): Promise<NamingDevnet> {
  const scenario = opts.scenario ?? "none";
  const admin = demoKeypair("admin");
  let contracts: NamingContracts | undefined;
  // The demo lays its history down in the past, so genesis must be older than that history.
  const genesisCloseTime =
    opts.genesisCloseTime ?? (scenario === "demo" ? Math.floor(Date.now() / 1000) - 4 * DAY : undefined);
  let deploymentLedger = 0;
  let demo: DemoManifest | undefined;
  let bulk: BulkSummary | undefined;
  // The scenario is built before the public port opens (startDevnet's `build`): the demo dates its ledgers in the
  // past, and a request closing a ledger at wall-clock time in the middle would make its next close impossible.
  const devnet = await startDevnet({
    ...opts,
    genesisCloseTime,
    closeIntervalMs: 0,
    setup: async (chain) => {
      contracts = deployNamingContracts(chain, admin.publicKey(), {
        windowSeconds: opts.claimWindowSeconds,
        graceSeconds: opts.claimGraceSeconds,
      });
      chain.fund(admin.publicKey());
      await opts.setup?.(chain);
    },
    build: async ({ rpcUrl, chain }) => {
      if (contracts === undefined) throw new Error("naming contracts were not deployed");
      deploymentLedger = chain.latest.sequence + 1;
      if (scenario === "demo") {
        demo = await runDemoScenario({
          rpcUrl,
          networkPassphrase: chain.networkPassphrase,
          latestCloseTime: () => BigInt(chain.latest.closeTime),
          closeLedger: (o) => {
            chain.closeLedger(o);
          },
          fund: async (publicKey) => chain.fund(publicKey),
          nativeTokenId: chain.nativeTokenId,
          contracts,
        });
      } else if (scenario === "bulk") {
        bulk = runBulkScenario(chain, contracts, opts.bulk);
      } else {
        chain.closeLedger();
      }
    },
  });
  if (contracts === undefined) throw new Error("naming contracts were not deployed");
  const chain = devnet.chain;
  devnet.setCloseInterval(opts.closeIntervalMs ?? 1000);
  return {
    ...devnet,
    contracts: { ...contracts, nativeToken: chain.nativeTokenId },
    deploymentLedger,
    adminPublicKey: admin.publicKey(),
    demo,
    bulk,
  };
}
