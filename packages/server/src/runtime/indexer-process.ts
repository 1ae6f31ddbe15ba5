// The indexer as a process: exactly one writer per database. On Postgres it holds an advisory lock while it
// writes; a second `namereg index` waits as a standby and takes over within seconds when the holder's connection
// dies (the lock goes with it). The lock elects; the writer epoch fences (db/writer-fence.ts), so a writer that
// has not yet noticed its loss cannot commit. The lock is a lease and every batch is bounded, so a writer that is
// frozen rather than dead also loses its place within WRITER_STALL_TIMEOUT_MS. A lost lock or a database outage
// sends the process back to taking the lock, with backoff, never to exit.
import type { Logger } from "pino";
import { ContractReader } from "../chain/contract-reader.ts";
import { RpcClient } from "../chain/rpc-client.ts";
import type { Config } from "../config/index.ts";
import { type AdvisoryLock, advisoryLockKey, type Database } from "../db/index.ts";
import { FencedError, takeWriterEpoch } from "../db/writer-fence.ts";
import { ChainIdentityError, verifyChainAtStart } from "../indexer/chain-identity.ts";
import { type BatchInfo, type CoreContract, Indexer } from "../indexer/indexer.ts";
import { readLegacyLabels } from "../indexer/legacy-labels.ts";
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

/**
 * The verified entries of LEGACY_LABELS_FILE (none without it). Entries that do not verify are logged and left
 * out; a named file that cannot be read stops the start, since the operator meant it to be used.
 */
export async function legacyLabelsOf(config: Config, logger: Logger): Promise<Map<string, string>> {
  const file = config.chain.legacyLabelsFile;
  if (file === null) return new Map();
  const { labels, problems } = await readLegacyLabels(file);
  for (const p of problems) {
    logger.warn({ file, line: p.line, entry: p.text }, `legacy label not used: ${p.reason}`);
  }
  logger.info({ file, verified: labels.size, rejected: problems.length }, "legacy labels loaded");
  return labels;
}

export async function runIndexerProcess(opts: IndexerProcessOptions): Promise<void> {
  const { config, database, logger, signal } = opts;
  const { rpcUrl, networkPassphrase } = config.chain;
  const registryId = config.chain.contracts.registry.id;
  if (rpcUrl === null || networkPassphrase === null || registryId === null) {
    throw new Error("the indexer needs RPC_URL, NETWORK_PASSPHRASE and REGISTRY_ID");
  }
  const legacyLabels = await legacyLabelsOf(config, logger);
  const key = advisoryLockKey(INDEXER_LOCK);
  // A writer that stops answering (frozen, paused, cut off) loses the lock after this much silence, and its open
  // batch with it; the standby then takes over (docs/operations.md, WRITER_STALL_TIMEOUT_MS).
  const leaseMs = config.database.writerStallTimeoutMs;
  const backoff = new Backoff();
  // Each turn: become the writer (or wait as a standby), write until the lock or the database goes, start over.
  // Only the signal ends the loop; a database outage is waited out, however long.
  while (!signal.aborted) {
    let lock: AdvisoryLock | null;
    try {
      lock = await database.tryAdvisoryLock(key, { leaseMs });
      if (lock === null) {
        logger.info("another indexer holds the writer lock; waiting as a standby");
        lock = await database.advisoryLock(key, { signal, leaseMs });
      }
    } catch (err) {
      if (signal.aborted) return;
      const ms = backoff.next();
      logger.warn({ err, retryInMs: ms }, "cannot reach the database to take the writer lock; retrying");
      await sleep(ms, signal);
      continue;
    }
    try {
      await writeWhileHolding(opts, lock, { rpcUrl, networkPassphrase, registryId, legacyLabels }, () =>
        backoff.reset(),
      );
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof ChainIdentityError) {
        // Nothing to wait out: only an operator can decide (a fresh database, or the right RPC). Said once.
        logger.error({ reason: err.reason }, err.message);
        throw err;
      }
      if (err instanceof FencedError)
        logger.error({ err }, "another indexer took over as writer; standing by");
      else logger.warn({ err }, "indexer stopped by a database error; starting over");
    } finally {
      await lock.release().catch(() => undefined);
    }
    if (signal.aborted) return;
    if (lock.lost.aborted) logger.error("the indexer lost its writer lock; stopped writing, re-taking it");
    await sleep(backoff.next(), signal);
  }
}

async function writeWhileHolding(
  opts: IndexerProcessOptions,
  lock: AdvisoryLock,
  chain: { rpcUrl: string; networkPassphrase: string; registryId: string; legacyLabels: Map<string, string> },
  onActive: () => void,
): Promise<void> {
  const { config, database, logger, signal } = opts;
  const stop = AbortSignal.any([signal, lock.lost]);
  // Taken with the lock held: waits for a deposed writer's batch in flight, then makes its next one fail.
  const stallTimeoutMs = database.kind === "postgres" ? config.database.writerStallTimeoutMs : undefined;
  const epoch = await takeWriterEpoch(database.db, stallTimeoutMs === undefined ? {} : { stallTimeoutMs });
  const rpc = new RpcClient(chain.rpcUrl);
  // Not this mirror's chain (another network, a reset): stop writing, saying why (chain-identity.ts).
  const identity = await verifyChainAtStart({
    db: database.db,
    rpc,
    networkPassphrase: chain.networkPassphrase,
  });
  const reporter = progressReporter({ logger });
  const indexer = new Indexer({
    db: database.db,
    rpc,
    reader: new ContractReader(chain.rpcUrl, chain.networkPassphrase),
    core: await coreContracts(config, rpc),
    registryId: chain.registryId,
    legacyLabels: chain.legacyLabels,
    epoch,
    ...(stallTimeoutMs === undefined ? {} : { stallTimeoutMs }),
    // PostgreSQL commits independent streams on two connections at once (~1.6× ingest on two cores); PGlite has
    // a single connection.
    concurrency: database.kind === "postgres" ? 2 : 1,
    changeRetentionMs: config.changes.retentionDays * 86_400_000,
    headPollMs: config.changes.headPollMs,
    onHead: (head) => identity.observe(head),
    onBatch: (info) => {
      reporter(info);
      opts.onBatch?.(info);
      if (info.deadLettered > 0) logger.warn({ deadLettered: info.deadLettered }, "events dead-lettered");
    },
    onGap: (gap) => logger.warn({ gap }, "gap recorded: events outside the RPC's retention window"),
    onError: (err) => logger.error({ err }, "indexer pass failed; retrying"),
  });
  await indexer.init();
  logger.info({ epoch }, "indexer active (holds the writer lock)");
  onActive();
  opts.onActive?.();
  await indexer.run(stop);
}

const RETRY_MIN_MS = 250;
/**
 * Capped low: a database failover (docs/operations.md "High availability") is many failed attempts in a row, and
 * a cap of 10 s put the first attempt after the new leader up to 10 s late; one attempt every 2 s during an outage
 * costs nothing, and indexing resumes within about 2 s of the database answering again.
 */
const RETRY_MAX_MS = 2_000;

class Backoff {
  #ms = RETRY_MIN_MS;
  next(): number {
    const ms = this.#ms;
    this.#ms = Math.min(this.#ms * 2, RETRY_MAX_MS);
    return ms;
  }
  reset(): void {
    this.#ms = RETRY_MIN_MS;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
