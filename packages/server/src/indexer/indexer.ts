// The indexer loop (docs/design.md "Data flow" 1–4). Contracts are followed in streams of at most 25 (one getEvents
// request covers 5 filters × 5 ids); a contract discovered mid-stream gets its own catch-up stream from its
// first ledger and joins another stream once both stand at the head. Each batch commits with its position.
import { asc, eq } from "drizzle-orm";
import type { ContractReader } from "../chain/contract-reader.ts";
import { type LatestLedger, LedgerRangeError, type RpcClient } from "../chain/rpc-client.ts";
import { pruneChanges } from "../db/outbox.ts";
import { streams } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { assertWriter, FencedError } from "../db/writer-fence.ts";
import { applyPage, type PageResult } from "./apply-batch.ts";
import { type IndexerCache, loadIndexerCache } from "./cache.ts";
import { ChainIdentityError } from "./chain-identity.ts";
import { decodeRawEvent } from "./decode.ts";
import { fetchBatch, type StreamPosition } from "./fetch-batch.ts";
import { recordRetentionGap } from "./gaps.ts";
import type { Role } from "./projections/index.ts";
import { type ReplayDeps, replayNamedLegacyAllocations, retryDeadLetter } from "./replay.ts";
import { rereadNamespaces } from "./rereads.ts";
import { IndexerStatus } from "./status.ts";
import { contractsOf, mergeAtHead, trackNew } from "./streams.ts";

export interface CoreContract {
  role: Extract<Role, "registry" | "allocator" | "lookup" | "primary">;
  contractId: string;
  startLedger: number;
}

export interface BatchInfo extends PageResult {
  streamId: number;
  events: number;
  /** Time the batch's database transaction took (its fetch overlapped the previous batch's commit). */
  commitMs: number;
  fromLedger: number;
  nextLedger: number;
  latestLedger: number;
}

/** How often the writer looks for change events past retention. */
const PRUNE_EVERY_MS = 10 * 60_000;

export interface IndexerOptions {
  db: Db;
  rpc: RpcClient;
  reader: ContractReader;
  core: CoreContract[];
  /** Registry id, for namespace re-reads. */
  registryId: string;
  /** Verified discovery data for hash-only legacy allocations (LEGACY_LABELS_FILE), node → label. */
  legacyLabels?: ReadonlyMap<string, string>;
  pollMs?: number;
  /**
   * While idle, the latest ledger is asked for this often and a new one ends the wait at once (0: wait the whole
   * `pollMs`). Only `getLatestLedger`, nothing written, so it costs the RPC a cheap call and the database nothing.
   */
  headPollMs?: number;
  pageLimit?: number;
  /** Streams advanced at once (default 1; 2 suits PostgreSQL on two cores). */
  concurrency?: number;
  now?: () => Date;
  /**
   * The writer epoch this process took with the writer lock (db/writer-fence.ts). Every write transaction
   * proves it is still current; omitted only where nothing else can write.
   */
  epoch?: number;
  /** With `epoch`: a write transaction left idle this long is ended by the server (writer-fence.ts). */
  stallTimeoutMs?: number;
  /** Change events older than this leave the outbox (CHANGE_RETENTION_DAYS, docs/webhooks.md); omitted: kept. */
  changeRetentionMs?: number;
  onBatch?: (info: BatchInfo) => void;
  onGap?: (gap: { contractId: string; fromLedger: number; toLedger: number; reason: string }) => void;
  onError?: (err: unknown) => void;
  /**
   * Every head the writer reads, before it is used (chain-identity.ts); throwing ChainIdentityError stops the run.
   */
  onHead?: (head: LatestLedger) => Promise<void>;
}

export class Indexer {
  private readonly o: Required<
    Omit<
      IndexerOptions,
      | "onBatch"
      | "onGap"
      | "onError"
      | "epoch"
      | "stallTimeoutMs"
      | "legacyLabels"
      | "changeRetentionMs"
      | "onHead"
    >
  > &
    Pick<
      IndexerOptions,
      "onBatch" | "onGap" | "onError" | "epoch" | "stallTimeoutMs" | "changeRetentionMs" | "onHead"
    >;
  private readonly cache: IndexerCache;
  private readonly status: IndexerStatus;
  private signal: AbortSignal | null = null;
  /** When the outbox was last pruned (ms since the epoch); the writer prunes it as it goes. */
  private prunedAt = 0;
  /** The latest ledger the last pass saw: the idle wait ends when the RPC reports a newer one. */
  private seenHead = 0;

  private stopping(): boolean {
    return this.signal?.aborted === true;
  }

  constructor(opts: IndexerOptions) {
    this.o = {
      pollMs: 1000,
      headPollMs: 0,
      pageLimit: 10_000,
      concurrency: 1,
      now: () => new Date(),
      ...opts,
    };
    this.cache = { contracts: new Map(), labels: new Map(), legacyLabels: opts.legacyLabels ?? new Map() };
    this.status = new IndexerStatus(this.o.db, this.o.now);
  }

  /** Tracks the configured core contracts (once) and loads the in-memory view. */
  async init(): Promise<void> {
    await trackNew(this.o.db, this.o.core);
    await this.reloadView();
    await this.status.ensure();
    await replayNamedLegacyAllocations(this.replayDeps());
  }

  /** What replaying archived events needs: this indexer's view, chain re-reads and its writer epoch. */
  private replayDeps(): ReplayDeps {
    return {
      db: this.o.db,
      cache: this.cache,
      reader: this.o.reader,
      rpc: this.o.rpc,
      registryId: this.o.registryId,
      ...(this.o.epoch === undefined ? {} : { epoch: this.o.epoch }),
    };
  }

  /** Tracked contracts and namespace labels, read from the database. */
  private async reloadView(): Promise<void> {
    await loadIndexerCache(this.o.db, this.cache);
  }

  /** One pass over every stream; true when any stream moved. */
  async runOnce(): Promise<boolean> {
    const { db, rpc } = this.o;
    let head: Awaited<ReturnType<RpcClient["getLatestLedger"]>>;
    try {
      head = await rpc.getLatestLedger();
    } catch (err) {
      await this.status.recordRpcFailure().catch(() => undefined);
      throw err;
    }
    await this.o.onHead?.(head);
    await this.status.observeHead(head.sequence);
    this.seenHead = head.sequence;
    let progressed = false;
    const rows = await db.select().from(streams).orderBy(asc(streams.nextLedger), asc(streams.id));
    const behind: { stream: (typeof rows)[number]; ids: string[] }[] = [];
    // A stream this process does not know was made by another writer of the mirror (a backfill or a dead-letter
    // retry that discovered a contract): reload the view before deciding the stream is empty.
    if (rows.some((r) => contractsOf(this.cache, r.id).length === 0)) await this.reloadView();
    for (const stream of rows) {
      const ids = contractsOf(this.cache, stream.id);
      if (ids.length === 0) {
        await db.delete(streams).where(eq(streams.id, stream.id));
        continue;
      }
      if (stream.nextLedger <= head.sequence) behind.push({ stream, ids });
    }
    // Streams follow disjoint contracts and write disjoint rows, so several can commit at once on PostgreSQL's
    // connection pool; PGlite has one connection, where concurrency 1 keeps the batches in turn.
    const queue = [...behind];
    const worker = async () => {
      // Stopping is checked between streams too: a deposed or terminating writer must not start another.
      for (let next = queue.shift(); next !== undefined && !this.stopping(); next = queue.shift()) {
        if (await this.advance(next.stream, next.ids)) progressed = true;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.o.concurrency, queue.length) }, worker));
    if (await mergeAtHead(db, this.cache, head.sequence, (tx) => this.fence(tx))) progressed = true;
    await this.status.recordProgress(progressed);
    return progressed;
  }

  /**
   * Runs until `signal` aborts; errors are reported and retried after a pause. Only a FencedError (another
   * process is the writer now) or a ChainIdentityError (not this mirror's chain) ends the run by throwing.
   */
  async run(signal: AbortSignal): Promise<void> {
    this.signal = signal;
    while (!signal.aborted) {
      let progressed = false;
      try {
        progressed = await this.runOnce();
        await this.pruneChangesIfDue();
      } catch (err) {
        if (err instanceof FencedError || err instanceof ChainIdentityError) throw err;
        this.o.onError?.(err);
      }
      if (!progressed) await this.waitForNextLedger(signal);
    }
  }

  /**
   * The idle wait between passes: at most `pollMs`, ended early when the RPC's latest ledger moves past the one
   * the last pass saw. A full idle pass writes status rows and reads the streams; asking only for the head between
   * them lets a change reach the outbox (and `/v1/stream`, docs/webhooks.md) about `headPollMs` after its ledger
   * closes instead of up to `pollMs` later. A failed look ends the wait too: the pass that follows reports it.
   */
  private async waitForNextLedger(signal: AbortSignal): Promise<void> {
    const { pollMs, headPollMs, rpc } = this.o;
    if (headPollMs <= 0 || headPollMs >= pollMs) return sleep(pollMs, signal);
    const until = Date.now() + pollMs;
    while (!signal.aborted) {
      const left = until - Date.now();
      if (left <= 0) return;
      await sleep(Math.min(headPollMs, left), signal);
      if (signal.aborted) return;
      try {
        if ((await rpc.getLatestLedger()).sequence > this.seenHead) return;
      } catch {
        return;
      }
    }
  }

  /** Drops change events past retention, at most once per PRUNE_EVERY_MS. */
  private async pruneChangesIfDue(): Promise<void> {
    const retention = this.o.changeRetentionMs;
    const now = this.o.now().getTime();
    if (retention === undefined || now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    await pruneChanges(this.o.db, new Date(now - retention));
  }

  /**
   * Drains a stream up to the head, fetching the next batch while the current one commits (network and
   * database overlap). A prefetched batch is discarded if its predecessor fails to commit.
   */
  private async advance(stream: typeof streams.$inferSelect, ids: string[]): Promise<boolean> {
    // Decoding happens as each prefetched batch arrives, overlapping the previous batch's database work.
    const fetch = (p: StreamPosition) =>
      fetchBatch(this.o.rpc, ids, p, { limit: this.o.pageLimit }).then((b) => ({
        ...b,
        decoded: b.events.map(decodeRawEvent),
      }));
    let position: StreamPosition = { nextLedger: stream.nextLedger, cursor: stream.cursor };
    let pending: ReturnType<typeof fetch> | null = fetch(position);
    let progressed = false;
    while (pending !== null) {
      let batch: Awaited<ReturnType<typeof fetch>>;
      try {
        batch = await pending;
      } catch (err) {
        if (!(err instanceof LedgerRangeError) || position.nextLedger >= err.oldest) throw err;
        const recorded = await recordRetentionGap(
          this.o.db,
          (tx) => this.fence(tx),
          { id: stream.id, contractIds: ids },
          position.nextLedger,
          err.oldest - 1,
          this.o.now(),
        );
        for (const gap of recorded) this.o.onGap?.(gap);
        return true;
      }
      const moved = batch.next.nextLedger !== position.nextLedger || batch.next.cursor !== position.cursor;
      const more = moved && batch.next.nextLedger <= batch.latestLedger && !this.stopping();
      pending = more ? fetch(batch.next) : null;
      pending?.catch(() => undefined); // observed when awaited; never an unhandled rejection meanwhile
      const rereads = await rereadNamespaces(this.replayDeps(), batch.decoded);
      const committing = performance.now();
      const result = await applyPage(this.o.db, this.cache, {
        events: batch.decoded,
        rereads,
        coverage: { kind: "stream", streamId: stream.id, next: batch.next },
        ...(this.o.epoch === undefined ? {} : { epoch: this.o.epoch }),
        ...(this.o.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: this.o.stallTimeoutMs }),
      });
      this.o.onBatch?.({
        ...result,
        streamId: stream.id,
        events: batch.events.length,
        commitMs: performance.now() - committing,
        fromLedger: position.nextLedger,
        nextLedger: batch.next.nextLedger,
        latestLedger: batch.latestLedger,
      });
      progressed ||= moved;
      position = batch.next;
      // A batch prefetched before the stop is dropped, not applied: stopping waits for one commit per stream.
      if (this.stopping()) break;
    }
    return progressed;
  }

  /**
   * Projects one dead-lettered event again with the current code (namereg dead-letters retry, replay.ts); call
   * init() first. Returns the error if it fails again.
   */
  retryDeadLetter(eventId: string): Promise<{ resolved: boolean; error: string | null }> {
    return retryDeadLetter(this.replayDeps(), eventId);
  }

  private async fence(tx: Db): Promise<void> {
    if (this.o.epoch !== undefined) await assertWriter(tx, this.o.epoch, this.o.stallTimeoutMs);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });
}
