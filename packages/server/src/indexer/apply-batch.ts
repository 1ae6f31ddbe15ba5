// The one way a page of events enters the mirror, for the live loop, the back-fill and dead-letter replays alike:
// one database transaction holding the archive rows (keyed by event id, so a replay adds nothing), the
// projections of the new events in chain order, dead letters, discovered contracts and their streams, what the
// page does to coverage (the stream's position, or the gap a back-fill filled), the changed-node notification
// (delivered on commit) and the page's change events for apps (the outbox; change-mapping.ts). When fenced, the
// transaction first proves this process is still the writer. Either all of it commits or none of it does, and
// only then does the in-memory view move on.
import type { Namespace } from "@namereg/protocol";
import { and, eq, gte, lte } from "drizzle-orm";
import type { ChangeDraft } from "../changes/catalogue.ts";
import { anyOf } from "../db/bulk.ts";
import { copyRows } from "../db/copy.ts";
import { notifyNodeChanges } from "../db/node-changes.ts";
import { appendChanges } from "../db/outbox.ts";
import { deadLetters, events, streams } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { assertWriter, excludeWriter } from "../db/writer-fence.ts";
import type { IndexerCache } from "./cache.ts";
import { changeKeys, changesOf } from "./change-mapping.ts";
import type { IncomingEvent } from "./decode.ts";
import type { StreamPosition } from "./fetch-batch.ts";
import { type OpenedGap, recordFill } from "./gaps.ts";
import { collectKeys, ProjectionError, project } from "./projections/index.ts";
import { emptyKeys, type TrackedRow, WorkingSet } from "./working-set.ts";

/** What a page does to the mirror's coverage, committed with its events. */
export type PageCoverage =
  /** A stream's page (the live loop): the stream's position moves to `next`. */
  | { kind: "stream"; streamId: number; next: StreamPosition }
  /**
   * A back-fill of the ledgers [from, to]: they leave the gap rows `gapIds` (what lies outside stays recorded).
   * A contract discovered inside the range gets a stream that starts after it (never backwards) and a gap of its
   * own from its first ledger to `to`, which its own fill cuts: a crash in between leaves coverage true.
   */
  | { kind: "fill"; from: number; to: number; gapIds: readonly number[] }
  /**
   * Archived events that were dead-lettered, projected again with the current code (namereg dead-letters retry):
   * nothing moves; their archive rows' decoded columns are brought up to date and their dead letters resolved,
   * or the new error is recorded.
   */
  | { kind: "replay" };

export interface Page {
  /** The page's events, decoded (the indexer decodes each page as it arrives), in chain order. */
  events: IncomingEvent[];
  /** Namespace records re-read from the chain for the page's allocations (rereads.ts). */
  rereads: Map<string, Namespace | null>;
  coverage: PageCoverage;
  /** The writer epoch this process holds; omitted only by tests and tools that write alone. */
  epoch?: number;
  /** With `epoch`: the page is ended by the server once it sits idle this long (writer-fence.ts). */
  stallTimeoutMs?: number;
  /** A tool writing next to the writer (backfill): serialise with its pages through the fence. */
  exclusive?: boolean;
}

export interface PageResult {
  archived: number;
  applied: number;
  deadLettered: number;
  discovered: TrackedRow[];
  changedNodes: Set<string>;
  /** Fill pages: the gaps opened for contracts discovered inside the range, to be filled next. */
  openedGaps: OpenedGap[];
}

/** A placeholder stream id for contracts discovered in this batch; each gets its own catch-up stream. */
const NEW_STREAM = -1;

export async function applyPage(db: Db, cache: IndexerCache, page: Page): Promise<PageResult> {
  const { coverage } = page;
  const incoming = page.events;
  const result = await db.transaction(async (tx) => {
    if (page.epoch !== undefined) await assertWriter(tx, page.epoch, page.stallTimeoutMs);
    if (page.exclusive === true) await excludeWriter(tx);
    const replay = coverage.kind === "replay";
    const known = replay ? new Set<string>() : await archivedIds(tx, incoming);
    const fresh = incoming.filter((e) => !known.has(e.row.id));
    const ws = new WorkingSet();
    const contract = (id: string) => ws.tracked.get(id) ?? cache.contracts.get(id);
    const keys = emptyKeys();
    for (const e of fresh) {
      if (e.decoded.kind !== "naming") continue;
      collectKeys(e.decoded.event, contract(e.row.contractId), keys);
      changeKeys(e.decoded.event, keys);
    }
    await ws.load(tx, keys);
    const letters: (typeof deadLetters.$inferInsert)[] = [];
    const superseded = supersededByCompanion(fresh);
    const changes: ChangeDraft[] = [];
    let applied = 0;
    for (const e of fresh) {
      e.row.namespace = namespaceOfEmitter(cache, contract(e.row.contractId));
      if (e.decoded.kind === "invalid") {
        letters.push(deadLetter(e, e.decoded.error));
        continue;
      }
      if (e.decoded.kind !== "naming" || superseded.has(e)) continue;
      const event = e.decoded.event;
      const previousPrimary =
        event.type === "set_pri" || event.type === "clr_pri"
          ? (ws.primary.get(event.address)?.name ?? null)
          : null;
      try {
        e.row.namespace =
          project(
            {
              ws,
              contract,
              reread: (node) => page.rereads.get(node),
              labelOf: (node) => ws.namespaces.get(node)?.label ?? cache.labels.get(node) ?? null,
              discoveredLabel: (node) => cache.legacyLabels?.get(node),
              streamFor: () => NEW_STREAM,
            },
            event,
            e.row,
          ) ?? e.row.namespace;
        applied++;
        changes.push(
          ...changesOf(event, e.row, {
            namespace: e.row.namespace,
            namespaceNode: contract(e.row.contractId)?.namespaceNode ?? null,
            nameOf: (node) => nameOf(ws, node),
            previousPrimary,
          }),
        );
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
    const created = new Set<TrackedRow>();
    for (const t of ws.tracked.values()) {
      if (t.streamId === NEW_STREAM) {
        created.add(t);
        const start = coverage.kind === "fill" ? Math.max(t.startLedger, coverage.to + 1) : t.startLedger;
        const [s] = await tx
          .insert(streams)
          .values({ nextLedger: start, cursor: null })
          .returning({ id: streams.id });
        if (s === undefined) throw new Error("stream insert returned nothing");
        t.streamId = s.id;
      }
    }
    await ws.flush(tx);
    await notifyNodeChanges(tx, ws.changedNodes, ws.changedNamespaces);
    if (coverage.kind === "stream") {
      await tx
        .update(streams)
        .set({ nextLedger: coverage.next.nextLedger, cursor: coverage.next.cursor, updatedAt: new Date() })
        .where(eq(streams.id, coverage.streamId));
    }
    const openedGaps =
      coverage.kind === "fill"
        ? await recordFill(
            tx,
            coverage,
            [...created].filter((t) => t.startLedger <= coverage.to),
          )
        : [];
    // Last, since it takes the outbox's lock until commit (db/outbox.ts): nothing else waits behind it.
    await appendChanges(tx, changes, { backfill: coverage.kind !== "stream" });
    return { ws, archived: fresh.length, applied, deadLettered: letters.length, openedGaps };
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
    openedGaps: result.openedGaps,
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

/** The full name of a name or subname node the working set holds. */
function nameOf(ws: WorkingSet, node: string): string | null {
  const name = ws.names.get(node);
  if (name !== null) return `${name.label}.${name.namespace}`;
  const sub = ws.subnames.get(node);
  return sub === null ? null : `${sub.child}.${sub.parentLabel}.${sub.namespace}`;
}

function namespaceOfEmitter(cache: IndexerCache, emitter: TrackedRow | undefined): string | null {
  const node = emitter?.namespaceNode;
  return node ? (cache.labels.get(node) ?? null) : null;
}

function deadLetter(e: IncomingEvent, error: string): typeof deadLetters.$inferInsert {
  return { eventId: e.row.id, contractId: e.row.contractId, ledger: e.row.ledger, error };
}
