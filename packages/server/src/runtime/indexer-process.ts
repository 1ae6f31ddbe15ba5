// The indexer as a process: exactly one writer per database. On Postgres it holds an advisory lock for its
// whole life; a second `namereg index` waits as a standby and takes over within seconds when the holder's
// connection dies (the lock goes with it). Changed nodes are published after each commit for API caches.
import type { Logger } from "pino";
import { ContractReader } from "../chain/contract-reader.ts";
import { RpcClient } from "../chain/rpc-client.ts";
import type { Config } from "../config/index.ts";
import { advisoryLockKey, type Database } from "../db/index.ts";
import { publishNodeChanges } from "../db/node-changes.ts";
import { type BatchInfo, type CoreContract, Indexer } from "../indexer/indexer.ts";
import { progressReporter } from "./progress.ts";

export const INDEXER_LOCK = "namereg:indexer";

export interface IndexerProcessOptions {
  config: Config;
  database: Database;
  logger: Logger;
  signal: AbortSignal;
  onBatch?: (info: BatchInfo) => void;
  /** Called once this process holds the writer lock and starts indexing. */
  onActive?: () => void;
}

export async function coreContracts(config: Config, rpc: RpcClient): Promise<CoreContract[]> {
  const roles = ["registry", "allocator", "lookup", "primary"] as const;
  let oldest: number | null = null;
  const out: CoreContract[] = [];
  for (const role of roles) {
    const c = config.chain.contracts[role];
    if (c.id === null) continue;
    let startLedger = c.startLedger;
    if (startLedger === null) {
      // No deployment ledger configured: start at the oldest ledger the RPC still holds.
      oldest ??= (await rpc.getHealth()).oldestLedger;
      startLedger = oldest;
    }
    out.push({ role, contractId: c.id, startLedger });
  }
  return out;
}

export async function runIndexerProcess(opts: IndexerProcessOptions): Promise<void> {
  const { config, database, logger, signal } = opts;
  const { rpcUrl, networkPassphrase } = config.chain;
  const registryId = config.chain.contracts.registry.id;
  if (rpcUrl === null || networkPassphrase === null || registryId === null) {
    throw new Error("the indexer needs RPC_URL, NETWORK_PASSPHRASE and REGISTRY_ID");
  }
  const key = advisoryLockKey(INDEXER_LOCK);
  let lock = await database.tryAdvisoryLock(key);
  if (lock === null) {
    logger.info("another indexer holds the writer lock; waiting as a standby");
    try {
      lock = await database.advisoryLock(key, { signal });
    } catch (err) {
      if (signal.aborted) return;
      throw err;
    }
  }
  const stop = AbortSignal.any([signal, lock.lost]);
  try {
    const rpc = new RpcClient(rpcUrl);
    const reporter = progressReporter({ logger });
    const indexer = new Indexer({
      db: database.db,
      rpc,
      reader: new ContractReader(rpcUrl, networkPassphrase),
      core: await coreContracts(config, rpc),
      registryId,
      // PostgreSQL commits independent streams on two connections at once (~1.6× ingest on two cores); PGlite has
      // a single connection.
      concurrency: database.kind === "postgres" ? 2 : 1,
      onBatch: (info) => {
        reporter(info);
        opts.onBatch?.(info);
        void publishChanges(database, info.changedNodes, logger);
        if (info.deadLettered > 0) logger.warn({ deadLettered: info.deadLettered }, "events dead-lettered");
      },
      onGap: (gap) => logger.warn({ gap }, "gap recorded: events outside the RPC's retention window"),
      onError: (err) => logger.error({ err }, "indexer pass failed; retrying"),
    });
    await indexer.init();
    logger.info("indexer active (holds the writer lock)");
    opts.onActive?.();
    await indexer.run(stop);
    if (lock.lost.aborted) logger.error("the indexer lost its writer lock; stopped writing");
  } finally {
    await lock.release().catch(() => undefined);
  }
}

async function publishChanges(database: Database, nodes: Set<string>, logger: Logger): Promise<void> {
  try {
    await publishNodeChanges(database, nodes);
  } catch (err) {
    logger.warn({ err }, "could not publish changed nodes");
  }
}
