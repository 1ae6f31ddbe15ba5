// Applies one batch in one database transaction: archive rows (keyed by event id, so a replay adds nothing),
// the projections of the new events in chain order, dead letters, discovered contracts and the stream's
// position, plus the changed-node notification (delivered on commit). When fenced, the transaction first proves
// this process is still the writer. Either all of it commits or none of it does.
import type { Namespace } from "@namereg/protocol";
import { and, eq, gte, lte } from "drizzle-orm";
import { anyOf } from "../db/bulk.ts";
import { copyRows } from "../db/copy.ts";
import { notifyNodeChanges } from "../db/node-changes.ts";
import { deadLetters, events, namespaces, streams, trackedContracts } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { assertWriter, excludeWriter } from "../db/writer-fence.ts";
import type { IncomingEvent } from "./decode.ts";
import type { StreamPosition } from "./fetch-batch.ts";
import { collectKeys, ProjectionError, project } from "./projections/index.ts";
import { emptyKeys, type TrackedRow, WorkingSet } from "./working-set.ts";

/** What the indexer keeps in memory between batches: tracked contracts and namespace labels. */
export interface IndexerCache {
  contracts: Map<string, TrackedRow>;
  labels: Map<string, string>;
  /** Verified discovery data for hash-only legacy allocations (LEGACY_LABELS_FILE), node → label. */
  legacyLabels?: ReadonlyMap<string, string>;
}

/** Fills `cache` (a fresh one by default) with the tracked contracts and namespace labels the database holds. */
export async function loadIndexerCache(
  db: Db,
  cache: IndexerCache = { contracts: new Map(), labels: new Map() },
): Promise<IndexerCache> {
  for (const row of await db.select().from(trackedContracts)) cache.contracts.set(row.contractId, row);
  for (const ns of await db.select({ node: namespaces.node, label: namespaces.label }).from(namespaces)) {
    cache.labels.set(ns.node, ns.label);
  }
  return cache;
}

export interface BatchResult {
  archived: number;
  applied: number;
  deadLettered: number;
  discovered: TrackedRow[];
  changedNodes: Set<string>;
}

/** A placeholder stream id for contracts discovered in this batch; each gets its own catch-up stream. */
const NEW_STREAM = -1;

export async function applyBatch(
  db: Db,
  cache: IndexerCache,
  input: {
    /** The stream whose position moves to `next`; null for events applied outside any stream (a backfill). */
    streamId: number | null;
    /** The batch's events, decoded (the indexer decodes each batch as it arrives). */
    events: IncomingEvent[];
    /** The stream's position after the batch; null when replaying (the stream does not move). */
    next: StreamPosition | null;
    /**
     * `replay`: the events are archived already and were dead-lettered (namereg dead-letters retry): project them
     * again with the current code, bring their archive rows' decoded columns up to date, and resolve their dead
     * letters — or record the new error. Default `append`: a new page from the stream.
     */
    mode?: "append" | "replay";
    rereads: Map<string, Namespace | null>;
    /** The writer epoch this process holds; omitted only by tests and tools that write alone. */
    epoch?: number;
    /** With `epoch`: the batch is ended by the server once it sits idle this long (writer-fence.ts). */
    stallTimeoutMs?: number;
    /** A tool writing next to the writer (backfill): serialise with its batches through the fence. */
    exclusive?: boolean;
  },
): Promise<BatchResult> {
  const incoming = input.events;
  const result = await db.transaction(async (tx) => {
    if (input.epoch !== undefined) await assertWriter(tx, input.epoch, input.stallTimeoutMs);
    if (input.exclusive === true) await excludeWriter(tx);
    const replay = input.mode === "replay";
    const known = replay ? new Set<string>() : await archivedIds(tx, incoming);
    const fresh = incoming.filter((e) => !known.has(e.row.id));
    const ws = new WorkingSet();
    const contract = (id: string) => ws.tracked.get(id) ?? cache.contracts.get(id);
    const keys = emptyKeys();
    for (const e of fresh) {
      if (e.decoded.kind === "naming") collectKeys(e.decoded.event, contract(e.row.contractId), keys);
    }
    await ws.load(tx, keys);
    const letters: (typeof deadLetters.$inferInsert)[] = [];
    const superseded = supersededByCompanion(fresh);
    let applied = 0;
    for (const e of fresh) {
      e.row.namespace = namespaceOfEmitter(cache, contract(e.row.contractId));
      if (e.decoded.kind === "invalid") {
        letters.push(deadLetter(e, e.decoded.error));
        continue;
      }
      if (e.decoded.kind !== "naming" || superseded.has(e)) continue;
      try {
        e.row.namespace =
          project(
            {
              ws,
              contract,
              reread: (node) => input.rereads.get(node),
              labelOf: (node) => ws.namespaces.get(node)?.label ?? cache.labels.get(node) ?? null,
              discoveredLabel: (node) => cache.legacyLabels?.get(node),
              streamFor: () => NEW_STREAM,
            },
            e.decoded.event,
            e.row,
          ) ?? e.row.namespace;
        applied++;
      } catch (err) {
        if (!(err instanceof ProjectionError)) throw err;
        letters.push(deadLetter(e, err.message));
      }
    }
    if (replay) {
      await settleReplayed(tx, fresh, letters);
    } else {
      await copyRows(
        tx,
        events,
        fresh.map((e) => e.row),
        { conflict: [events.id], onConflict: "nothing" },
      );
      if (letters.length > 0) await tx.insert(deadLetters).values(letters).onConflictDoNothing();
    }
    for (const t of ws.tracked.values()) {
      if (t.streamId === NEW_STREAM) {
        const [s] = await tx
          .insert(streams)
          .values({ nextLedger: t.startLedger, cursor: null })
          .returning({ id: streams.id });
        if (s === undefined) throw new Error("stream insert returned nothing");
        t.streamId = s.id;
      }
    }
    await ws.flush(tx);
    await notifyNodeChanges(tx, ws.changedNodes, ws.changedNamespaces);
    if (input.streamId !== null && input.next !== null) {
      await tx
        .update(streams)
        .set({ nextLedger: input.next.nextLedger, cursor: input.next.cursor, updatedAt: new Date() })
        .where(eq(streams.id, input.streamId));
    }
    return { ws, archived: fresh.length, applied, deadLettered: letters.length };
  });
  // Only after commit does the in-memory view move on.
  const discovered = [...result.ws.tracked.values()];
  for (const t of discovered) cache.contracts.set(t.contractId, t);
  for (const ns of result.ws.namespaces.values()) cache.labels.set(ns.node, ns.label);
  return {
    archived: result.archived,
    applied: result.applied,
    deadLettered: result.deadLettered,
    discovered,
    changedNodes: result.ws.changedNodes,
  };
}

/**
 * Legacy events whose versioned companion immediately follows them in the same invocation (docs/contracts.md "Rules the indexer relies on":
 * archive both, apply the change once): the companion carries the full data, so the legacy one is archive-only.
 */
function supersededByCompanion(batch: readonly IncomingEvent[]): Set<IncomingEvent> {
  const out = new Set<IncomingEvent>();
  for (let i = 0; i + 1 < batch.length; i++) {
    const older = batch[i];
    const newer = batch[i + 1];
    if (older?.decoded.kind !== "naming" || newer?.decoded.kind !== "naming") continue;
    const a = older.decoded.event;
    const b = newer.decoded.event;
    if (
      b.type === `${a.type}_v1` &&
      "node" in a &&
      "node" in b &&
      a.node === b.node &&
      older.row.txHash === newer.row.txHash &&
      older.row.contractId === newer.row.contractId
    ) {
      out.add(older);
    }
  }
  return out;
}

/**
 * The batch's events already in the archive (a replay after a crash or a takeover). Event ids are fixed-width, so
 * one range per contract on `events_contract_idx` (contract, id) finds them: an index-only scan that costs
 * nothing on a fresh back-fill, where looking up every id cost ~5% of the batch.
 */
async function archivedIds(tx: Db, incoming: readonly IncomingEvent[]): Promise<Set<string>> {
  const first = incoming[0];
  if (first === undefined) return new Set();
  let low = first.row.id;
  let high = first.row.id;
  const contracts = new Set<string>();
  for (const e of incoming) {
    if (e.row.id < low) low = e.row.id;
    if (e.row.id > high) high = e.row.id;
    contracts.add(e.row.contractId);
  }
  const rows = await tx
    .select({ id: events.id })
    .from(events)
    .where(and(anyOf(events.contractId, [...contracts]), gte(events.id, low), lte(events.id, high)));
  return new Set(rows.map((r) => r.id));
}

/** Replayed dead letters: resolved when projected (their archive rows get the decoded columns), else re-noted. */
async function settleReplayed(
  tx: Db,
  replayed: readonly IncomingEvent[],
  letters: readonly (typeof deadLetters.$inferInsert)[],
): Promise<void> {
  const failed = new Map(letters.map((l) => [l.eventId, l.error]));
  const now = new Date();
  for (const e of replayed) {
    const error = failed.get(e.row.id);
    if (error !== undefined) {
      await tx.update(deadLetters).set({ error }).where(eq(deadLetters.eventId, e.row.id));
      continue;
    }
    await tx
      .update(events)
      .set({ type: e.row.type, subject: e.row.subject, namespace: e.row.namespace })
      .where(eq(events.id, e.row.id));
    await tx
      .update(deadLetters)
      .set({ resolvedAt: now, resolution: "retried: projected with the current code" })
      .where(eq(deadLetters.eventId, e.row.id));
  }
}

function namespaceOfEmitter(cache: IndexerCache, emitter: TrackedRow | undefined): string | null {
  const node = emitter?.namespaceNode;
  return node ? (cache.labels.get(node) ?? null) : null;
}

function deadLetter(e: IncomingEvent, error: string): typeof deadLetters.$inferInsert {
  return { eventId: e.row.id, contractId: e.row.contractId, ledger: e.row.ledger, error };
}
