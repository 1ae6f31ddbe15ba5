// The indexer loop (docs/design.md "Data flow" 1–4). Contracts are followed in streams of at most 25 (one getEvents
// request covers 5 filters × 5 ids); a contract discovered mid-stream gets its own catch-up stream from its
// first ledger and joins another stream once both stand at the head. Each batch commits with its position.
import type { Namespace } from "@namereg/protocol";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { ContractReader } from "../chain/contract-reader.ts";
import { LedgerRangeError, type RpcClient } from "../chain/rpc-client.ts";
import { deadLetters, gaps, indexerState, streams, trackedContracts } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { assertWriter, FencedError } from "../db/writer-fence.ts";
import { applyBatch, type BatchResult, type IndexerCache, loadIndexerCache } from "./apply-batch.ts";
import { decodeRawEvent, type IncomingEvent } from "./decode.ts";
import { closesLedger, fetchBatch, MAX_CONTRACTS_PER_STREAM, type StreamPosition } from "./fetch-batch.ts";
import { waitingLegacyAllocations } from "./legacy-labels.ts";
import type { Role } from "./projections/index.ts";
import { archivedEvent, replayArchived, replayDeadLetters } from "./replay.ts";
import { rereadNamespaces } from "./rereads.ts";

export interface CoreContract {
  role: Extract<Role, "registry" | "allocator" | "lookup" | "primary">;
  contractId: string;
  startLedger: number;
}

export interface BatchInfo extends BatchResult {
  streamId: number;
  events: number;
  /** Time the batch's database transaction took (its fetch overlapped the previous batch's commit). */
  commitMs: number;
  fromLedger: number;
  nextLedger: number;
  latestLedger: number;
}

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
  onBatch?: (info: BatchInfo) => void;
  onGap?: (gap: { contractId: string; fromLedger: number; toLedger: number; reason: string }) => void;
  onError?: (err: unknown) => void;
}

export class Indexer {
  private readonly o: Required<
    Omit<IndexerOptions, "onBatch" | "onGap" | "onError" | "epoch" | "stallTimeoutMs" | "legacyLabels">
  > &
    Pick<IndexerOptions, "onBatch" | "onGap" | "onError" | "epoch" | "stallTimeoutMs">;
  private readonly cache: IndexerCache;
  private lastHead: number | null = null;
  private rpcFailing = false;
  private signal: AbortSignal | null = null;

  private stopping(): boolean {
    return this.signal?.aborted === true;
  }

  constructor(opts: IndexerOptions) {
    this.o = { pollMs: 1000, pageLimit: 10_000, concurrency: 1, now: () => new Date(), ...opts };
    this.cache = { contracts: new Map(), labels: new Map(), legacyLabels: opts.legacyLabels ?? new Map() };
  }

  /** Tracks the configured core contracts (once) and loads the in-memory view. */
  async init(): Promise<void> {
    const { db } = this.o;
    const tracked = new Set(
      (await db.select({ id: trackedContracts.contractId }).from(trackedContracts)).map((r) => r.id),
    );
    const missing = this.o.core.filter((c) => !tracked.has(c.contractId));
    if (missing.length > 0) {
      await db.transaction(async (tx) => {
        const start = Math.min(...missing.map((c) => c.startLedger));
        const [s] = await tx
          .insert(streams)
          .values({ nextLedger: start, cursor: null })
          .returning({ id: streams.id });
        if (s === undefined) throw new Error("could not create a stream");
        await tx.insert(trackedContracts).values(
          missing.map((c) => ({
            contractId: c.contractId,
            role: c.role,
            startLedger: c.startLedger,
            streamId: s.id,
          })),
        );
      });
    }
    await this.reloadView();
    await db.insert(indexerState).values({ id: 1 }).onConflictDoNothing();
    await this.replayNamedLegacyAllocations();
  }

  /**
   * Hash-only legacy allocations wait as dead letters until discovery data names them. When the labels file now
   * names one, every unresolved dead letter is replayed in chain order: the allocation first, then the events
   * that failed because its namespace was missing (the registrar it deploys then gets its catch-up stream).
   */
  private async replayNamedLegacyAllocations(): Promise<number> {
    const known = this.cache.legacyLabels;
    if (known === undefined || known.size === 0) return 0;
    const waiting = await waitingLegacyAllocations(this.o.db);
    if (!waiting.some((w) => w.node !== null && known.has(w.node))) return 0;
    return replayDeadLetters(this.replayDeps());
  }

  /** What replaying archived events needs: this indexer's view, chain re-reads and its writer epoch. */
  private replayDeps(): Parameters<typeof replayArchived>[0] {
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
      await this.recordRpcFailure().catch(() => undefined);
      throw err;
    }
    await this.observeHead(head.sequence);
    let progressed = false;
    const rows = await db.select().from(streams).orderBy(asc(streams.nextLedger), asc(streams.id));
    const behind: { stream: (typeof rows)[number]; ids: string[] }[] = [];
    // A stream this process does not know was made by another writer of the mirror (a backfill or a dead-letter
    // retry that discovered a contract): reload the view before deciding the stream is empty.
    if (rows.some((r) => this.contractsOf(r.id).length === 0)) await this.reloadView();
    for (const stream of rows) {
      const ids = this.contractsOf(stream.id);
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
    if (await this.mergeAtHead(head.sequence)) progressed = true;
    await this.recordProgress(progressed);
    return progressed;
  }

  /**
   * Runs until `signal` aborts; errors are reported and retried after a pause. Only a FencedError (another
   * process is the writer now) ends the run by throwing.
   */
  async run(signal: AbortSignal): Promise<void> {
    this.signal = signal;
    while (!signal.aborted) {
      let progressed = false;
      try {
        progressed = await this.runOnce();
      } catch (err) {
        if (err instanceof FencedError) throw err;
        this.o.onError?.(err);
      }
      if (!progressed) await sleep(this.o.pollMs, signal);
    }
  }

  private contractsOf(streamId: number): string[] {
    return [...this.cache.contracts.values()].filter((c) => c.streamId === streamId).map((c) => c.contractId);
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
        await this.recordGap(stream.id, ids, position.nextLedger, err.oldest - 1);
        return true;
      }
      const moved = batch.next.nextLedger !== position.nextLedger || batch.next.cursor !== position.cursor;
      const more = moved && batch.next.nextLedger <= batch.latestLedger && !this.stopping();
      pending = more ? fetch(batch.next) : null;
      pending?.catch(() => undefined); // observed when awaited; never an unhandled rejection meanwhile
      const rereads = await this.rereadNamespaces(batch.decoded);
      const committing = performance.now();
      const result = await applyBatch(this.o.db, this.cache, {
        streamId: stream.id,
        events: batch.decoded,
        next: batch.next,
        rereads,
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
   * Projects one dead-lettered event again with the current code (namereg dead-letters retry), with the same
   * chain re-reads a batch gets; call init() first. The event is archived already, so only projections, its
   * archive row's decoded columns and its dead letter change. Returns the error if it fails again.
   */
  async retryDeadLetter(eventId: string): Promise<{ resolved: boolean; error: string | null }> {
    const { db } = this.o;
    const [letter] = await db.select().from(deadLetters).where(eq(deadLetters.eventId, eventId));
    if (letter === undefined) throw new Error(`no dead letter ${eventId}`);
    if (letter.resolvedAt !== null) throw new Error(`dead letter ${eventId} is resolved already`);
    const incoming = await archivedEvent(db, eventId);
    if (incoming === null) throw new Error(`the archive has no event ${eventId}`);
    await replayArchived(this.replayDeps(), incoming);
    const [after] = await db.select().from(deadLetters).where(eq(deadLetters.eventId, eventId));
    if (incoming.decoded.kind === "foreign") {
      // Not a naming event after all (a topic this code does not follow): nothing to project, nothing to wait for.
      await db
        .update(deadLetters)
        .set({ resolvedAt: new Date(), resolution: "retried: not a naming event; nothing to project" })
        .where(eq(deadLetters.eventId, eventId));
      return { resolved: true, error: null };
    }
    if (incoming.decoded.kind === "invalid") {
      await db
        .update(deadLetters)
        .set({ error: incoming.decoded.error })
        .where(eq(deadLetters.eventId, eventId));
      return { resolved: false, error: incoming.decoded.error };
    }
    return after?.resolvedAt != null
      ? { resolved: true, error: null }
      : { resolved: false, error: after?.error ?? null };
  }

  private rereadNamespaces(batch: IncomingEvent[]): Promise<Map<string, Namespace | null>> {
    return rereadNamespaces(this.replayDeps(), batch);
  }

  private async recordGap(
    streamId: number,
    ids: string[],
    fromLedger: number,
    toLedger: number,
  ): Promise<void> {
    const reason = "outside the RPC's retention window";
    await this.o.db.transaction(async (tx) => {
      await this.fence(tx);
      // A retention window sliding during a back-fill cuts one step at a time: extend the contract's adjacent
      // gap instead of adding a row per step.
      const fresh: string[] = [];
      for (const contractId of ids) {
        const extended = await tx
          .update(gaps)
          .set({ toLedger })
          .where(
            and(eq(gaps.contractId, contractId), eq(gaps.toLedger, fromLedger - 1), eq(gaps.reason, reason)),
          )
          .returning({ id: gaps.id });
        if (extended.length === 0) fresh.push(contractId);
      }
      if (fresh.length > 0) {
        await tx
          .insert(gaps)
          .values(fresh.map((contractId) => ({ contractId, fromLedger, toLedger, reason })));
      }
      await tx
        .update(streams)
        .set({ nextLedger: toLedger + 1, cursor: null, updatedAt: this.o.now() })
        .where(eq(streams.id, streamId));
    });
    for (const contractId of ids) this.o.onGap?.({ contractId, fromLedger, toLedger, reason });
  }

  /** Streams standing at the same place at the head are joined, up to the per-request contract limit. */
  private async mergeAtHead(head: number): Promise<boolean> {
    const rows = (await this.o.db.select().from(streams).orderBy(asc(streams.id))).filter(
      (s) => s.nextLedger > head && (s.cursor === null || closesLedger(s.cursor)),
    );
    let merged = false;
    for (let i = 0; i < rows.length; i++) {
      const into = rows[i];
      if (into === undefined) continue;
      for (let j = i + 1; j < rows.length; j++) {
        const from = rows[j];
        if (from === undefined || from.nextLedger !== into.nextLedger) continue;
        const ids = this.contractsOf(from.id);
        if (this.contractsOf(into.id).length + ids.length > MAX_CONTRACTS_PER_STREAM) continue;
        await this.o.db.transaction(async (tx) => {
          await this.fence(tx);
          if (ids.length > 0) {
            await tx
              .update(trackedContracts)
              .set({ streamId: into.id })
              .where(inArray(trackedContracts.contractId, ids));
          }
          await tx.delete(streams).where(eq(streams.id, from.id));
        });
        for (const id of ids) {
          const c = this.cache.contracts.get(id);
          if (c !== undefined) this.cache.contracts.set(id, { ...c, streamId: into.id });
        }
        rows[j] = undefined as never;
        merged = true;
      }
    }
    return merged;
  }

  private async fence(tx: Db): Promise<void> {
    if (this.o.epoch !== undefined) await assertWriter(tx, this.o.epoch, this.o.stallTimeoutMs);
  }

  private async observeHead(sequence: number): Promise<void> {
    // Observation time moves only when the head does: a head that stops advancing must turn stale.
    const set: Partial<typeof indexerState.$inferInsert> = { rpcFailingSince: null };
    if (this.lastHead !== sequence) {
      set.headLedger = sequence;
      set.headObservedAt = this.o.now();
    } else if (!this.rpcFailing) return;
    this.lastHead = sequence;
    this.rpcFailing = false;
    await this.o.db.update(indexerState).set(set).where(eq(indexerState.id, 1));
  }

  /** The status route reports an indexer whose RPC reads keep failing; the first failure of a run is kept. */
  private async recordRpcFailure(): Promise<void> {
    if (this.rpcFailing) return;
    await this.o.db.update(indexerState).set({ rpcFailingSince: this.o.now() }).where(eq(indexerState.id, 1));
    this.rpcFailing = true;
  }

  private async recordProgress(progressed: boolean): Promise<void> {
    const [row] = await this.o.db
      .select({ min: sql<number | null>`min(${streams.nextLedger})` })
      .from(streams);
    const processed = row?.min === null || row?.min === undefined ? null : Number(row.min) - 1;
    const set: Partial<typeof indexerState.$inferInsert> = { processedLedger: processed };
    if (progressed) set.processedAt = this.o.now();
    await this.o.db.update(indexerState).set(set).where(eq(indexerState.id, 1));
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
