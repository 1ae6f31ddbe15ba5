// The change outbox (tables/outbox.ts): writing change events inside the transaction that makes the change,
// reading them in position order, and pruning what is past retention.
//
// Positions must become visible in increasing order, or a reader that has seen 12 could later meet an 11 that
// committed after it and skip it for good. A sequence alone does not give that (two transactions draw 11 and 12,
// the one with 12 commits first), so every writer takes one transaction-scoped advisory lock before it draws ids
// and holds it to its commit. Writers are the indexer (one per database) and the watchers, whose transactions are
// short; each takes the lock as its last step, holding nothing another writer waits for.
import { and, asc, eq, gt, inArray, lt, type SQL, sql } from "drizzle-orm";
import {
  type ChangeDraft,
  type ChangeEvent,
  type ChangeType,
  MAX_PAYLOAD_BYTES,
} from "../changes/catalogue.ts";
import { copyRows } from "./copy.ts";
import { advisoryLockKey } from "./shared.ts";
import { changeOutbox, changeOutboxState } from "./tables.ts";
import type { Db } from "./types.ts";

/** Notified in the writing transaction (so on its commit) with the highest position it wrote. */
export const CHANGES_CHANNEL = "namereg_changes";
const OUTBOX_LOCK = advisoryLockKey("namereg:outbox");
/** From this many drafts COPY's four round trips (savepoint, copy, release, notify) cost less than parsing JSON. */
const COPY_FROM = 64;

export type OutboxRow = typeof changeOutbox.$inferSelect;

export interface AppendOptions {
  /** The changes reached the mirror late (a back-fill, a replayed dead letter). */
  readonly backfill?: boolean;
}

/**
 * Appends `drafts` in order, inside `tx` (call it from the transaction that makes the change). A draft whose
 * (eventId, type) is already there is skipped, so a replayed batch or verdict writes nothing twice. Listeners of
 * CHANGES_CHANNEL hear of them when `tx` commits; a rollback writes and announces nothing.
 */
export async function appendChanges(
  tx: Db,
  drafts: readonly ChangeDraft[],
  options: AppendOptions = {},
): Promise<void> {
  if (drafts.length === 0) return;
  const backfill = options.backfill === true;
  await tx.execute(sql`select pg_advisory_xact_lock(${OUTBOX_LOCK.toString()}::bigint)`);
  // A watcher's verdict or a live page: one statement, one round trip.
  if (drafts.length < COPY_FROM) return insertSkippingKnown(tx, drafts, backfill);
  // A back-fill page writes a change per issued name, and parsing them as one JSON document cost PostgreSQL ~16%
  // of its back-fill time: COPY instead (db/copy.ts), which draws the ids in the rows' order, so the session's
  // last id is the highest. On PGlite, or when a draft is already there, the statement below writes them.
  const copied = await copyRows(
    tx,
    changeOutbox,
    drafts.map((d) => ({
      type: d.type,
      namespace: d.namespace,
      name: d.name ?? null,
      node: d.node ?? null,
      ledger: d.ledger,
      txHash: d.txHash,
      eventId: d.eventId,
      at: d.at ?? null,
      data: d.data,
      backfill,
    })),
    () => insertSkippingKnown(tx, drafts, backfill),
  );
  if (copied) {
    await tx.execute(
      sql`select pg_notify(${CHANGES_CHANNEL}, currval(pg_get_serial_sequence('change_outbox', 'id'))::text)`,
    );
  }
}

/** The drafts not there yet, in order, announced with the highest new position. */
async function insertSkippingKnown(tx: Db, drafts: readonly ChangeDraft[], backfill: boolean): Promise<void> {
  const rows = drafts.map((d) => ({
    type: d.type,
    namespace: d.namespace,
    name: d.name ?? null,
    node: d.node ?? null,
    ledger: d.ledger,
    tx_hash: d.txHash,
    event_id: d.eventId,
    at: d.at?.toISOString() ?? null,
    data: d.data,
  }));
  // Ordinality keeps the drafts' order in the ids they draw; the notification carries the highest new id.
  await tx.execute(sql`
    with input as (
      select e, n from jsonb_array_elements(${sql.param(JSON.stringify(rows))}::jsonb) with ordinality as x(e, n)
    ), written as (
      insert into change_outbox (type, namespace, name, node, ledger, tx_hash, event_id, at, data, backfill)
      select e->>'type', e->>'namespace', e->>'name', e->>'node', (e->>'ledger')::integer, e->>'tx_hash',
             e->>'event_id', (e->>'at')::timestamptz, e->'data', ${backfill}
      from input order by n
      on conflict (event_id, type) do nothing
      returning id
    )
    select pg_notify(${CHANGES_CHANNEL}, top::text) from (select max(id) as top from written) w where top is not null`);
}

export interface ChangeFilter {
  readonly namespace?: string;
  readonly name?: string;
  readonly types?: readonly ChangeType[];
}

function filterSql(filter: ChangeFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.namespace !== undefined) where.push(eq(changeOutbox.namespace, filter.namespace));
  if (filter.name !== undefined) where.push(eq(changeOutbox.name, filter.name));
  if (filter.types !== undefined) where.push(inArray(changeOutbox.type, [...filter.types]));
  return where;
}

/** Up to `limit` changes after position `after`, in position order, matching `filter`. */
export async function readChanges(
  db: Db,
  after: number,
  limit: number,
  filter: ChangeFilter = {},
): Promise<OutboxRow[]> {
  return db
    .select()
    .from(changeOutbox)
    .where(and(gt(changeOutbox.id, after), ...filterSql(filter)))
    .orderBy(asc(changeOutbox.id))
    .limit(limit);
}

export function matchesFilter(row: OutboxRow, filter: ChangeFilter): boolean {
  if (filter.namespace !== undefined && row.namespace !== filter.namespace) return false;
  if (filter.name !== undefined && row.name !== filter.name) return false;
  if (filter.types !== undefined && !filter.types.includes(row.type as ChangeType)) return false;
  return true;
}

export interface OutboxBounds {
  /** The highest position written so far (0 when none ever was). */
  head: number;
  /** Positions up to this one were pruned: a reader resuming from below it has missed changes. */
  prunedThrough: number;
}

export async function outboxBounds(db: Db): Promise<OutboxBounds> {
  const [top] = await db
    .select({ id: sql<number | null>`max(${changeOutbox.id})`.mapWith(Number) })
    .from(changeOutbox);
  const [state] = await db
    .select({ prunedThrough: changeOutboxState.prunedThrough })
    .from(changeOutboxState)
    .where(eq(changeOutboxState.id, 1));
  const prunedThrough = state?.prunedThrough ?? 0;
  const head = top?.id ?? 0;
  return { head: Math.max(Number.isNaN(head) ? 0 : head, prunedThrough), prunedThrough };
}

/**
 * Deletes the changes recorded before `before` and moves the horizon up to the last one deleted. Positions rise
 * with time, so everything below the first position recorded at or after `before` goes; returns how many.
 */
export async function pruneChanges(db: Db, before: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const [first] = await tx
      .select({ id: changeOutbox.id })
      .from(changeOutbox)
      .where(sql`${changeOutbox.createdAt} >= ${before.toISOString()}::timestamptz`)
      .orderBy(asc(changeOutbox.id))
      .limit(1);
    const [last] = await tx
      .select({ id: sql<number>`max(${changeOutbox.id})`.mapWith(Number) })
      .from(changeOutbox)
      .where(first === undefined ? sql`true` : lt(changeOutbox.id, first.id));
    const through = last?.id;
    if (through === undefined || through === null || Number.isNaN(through)) return 0;
    const deleted = await tx
      .delete(changeOutbox)
      .where(sql`${changeOutbox.id} <= ${through}`)
      .returning({ id: changeOutbox.id });
    await tx
      .insert(changeOutboxState)
      .values({ id: 1, prunedThrough: through, prunedAt: new Date() })
      .onConflictDoUpdate({
        target: changeOutboxState.id,
        set: {
          prunedThrough: sql`greatest(${changeOutboxState.prunedThrough}, ${through})`,
          prunedAt: new Date(),
        },
      });
    return deleted.length;
  });
}

/** The event as apps receive it: `{ type, timestamp, data: { common fields…, type's own… } }`. */
export function toChangeEvent(row: OutboxRow): ChangeEvent {
  const data: Record<string, unknown> = {
    namespace: row.namespace,
    ...(row.name === null ? {} : { name: row.name }),
    ...(row.node === null ? {} : { node: row.node }),
    ledger: row.ledger,
    txHash: row.txHash,
    eventId: row.eventId,
    at: row.at?.toISOString() ?? null,
    backfill: row.backfill,
    ...row.data,
  };
  return { type: row.type, timestamp: row.createdAt.toISOString(), data } as ChangeEvent;
}

/** The serialised event, checked against the payload bound every consumer relies on. */
export function changePayload(row: OutboxRow): string {
  const body = JSON.stringify(toChangeEvent(row));
  if (Buffer.byteLength(body) > MAX_PAYLOAD_BYTES) {
    throw new Error(
      `change ${row.id} (${row.type}) is ${Buffer.byteLength(body)} bytes, over ${MAX_PAYLOAD_BYTES}`,
    );
  }
  return body;
}
