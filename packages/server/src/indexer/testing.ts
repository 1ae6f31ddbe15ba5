// Test helpers: an indexer wired to a naming devnet and a database, run until it has nothing left to do.
import { type NamingDevnet, startNamingDevnet } from "@namereg/devnet";
import { ContractReader } from "../chain/contract-reader.ts";
import { RpcClient } from "../chain/rpc-client.ts";
import { createTestDatabase, type TestDatabase } from "../db/testing.ts";
import type { Db } from "../db/types.ts";
import type { DatabaseKind } from "../db/url.ts";
import { type CoreContract, Indexer, type IndexerOptions } from "./indexer.ts";

export function coreContractsOf(devnet: NamingDevnet): CoreContract[] {
  const { registry, allocator, lookup, primary } = devnet.contracts;
  const startLedger = devnet.deploymentLedger;
  return [
    { role: "registry", contractId: registry, startLedger },
    { role: "allocator", contractId: allocator, startLedger },
    { role: "lookup", contractId: lookup, startLedger },
    { role: "primary", contractId: primary, startLedger },
  ];
}

export function indexerFor(devnet: NamingDevnet, db: Db, opts: Partial<IndexerOptions> = {}): Indexer {
  return new Indexer({
    db,
    rpc: new RpcClient(devnet.rpcUrl, { retries: 2, backoffMs: 10 }),
    reader: new ContractReader(devnet.rpcUrl, devnet.networkPassphrase),
    core: coreContractsOf(devnet),
    registryId: devnet.contracts.registry,
    pollMs: 10,
    ...opts,
  });
}

/** Runs passes until one makes no progress (or `maxPasses`); returns the number of passes. */
export async function runUntilIdle(indexer: Indexer, maxPasses = 200): Promise<number> {
  for (let pass = 1; pass <= maxPasses; pass++) {
    if (!(await indexer.runOnce())) return pass;
  }
  throw new Error(`the indexer still progressed after ${maxPasses} passes`);
}

export interface IndexedDemoChain {
  devnet: NamingDevnet;
  database: TestDatabase;
  indexer: Indexer;
}

/**
 * The demo scenario on an on-demand devnet, indexed into a fresh test database of `kind` until idle. On failure
 * whatever was started is stopped again.
 */
export async function indexDemo(
  kind: DatabaseKind,
  opts: Partial<IndexerOptions> = {},
): Promise<IndexedDemoChain> {
  const devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
  let database: TestDatabase | undefined;
  try {
    database = await createTestDatabase(kind);
    const indexer = indexerFor(devnet, database.db, opts);
    await indexer.init();
    await runUntilIdle(indexer);
    return { devnet, database, indexer };
  } catch (error) {
    await database?.close();
    await devnet.stop();
    throw error;
  }
}
