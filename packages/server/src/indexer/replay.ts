// Projects archived events again with the current code (apply-batch's replay page): a dead letter an operator
// retries, every dead letter once a backfill filled the gap that held the state they change (a `locked` of a
// namespace whose allocation the gap held), or once the legacy labels file names a waiting hash-only allocation.
// The events are archived already; only projections, their archive rows' decoded columns and their dead letters
// change.
import { asc, eq, isNull } from "drizzle-orm";
import { deadLetters, events } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { applyPage } from "./apply-batch.ts";
import type { IndexerCache } from "./cache.ts";
import { decodeRawEvent, type IncomingEvent } from "./decode.ts";
import { waitingLegacyAllocations } from "./legacy-labels.ts";
import { type RereadDeps, rereadNamespaces } from "./rereads.ts";

/** What replaying needs: the writer's view, chain re-reads and how its transactions are fenced. */
export type ReplayDeps = RereadDeps & { db: Db; cache: IndexerCache; epoch?: number; exclusive?: boolean };

/** The stored archive row of `eventId`, decoded as the indexer decodes a fetched one. */
export async function archivedEvent(db: Db, eventId: string): Promise<IncomingEvent | null> {
  const [stored] = await db.select().from(events).where(eq(events.id, eventId));
  if (stored === undefined) return null;
  return decodeRawEvent({
    type: "contract",
    id: stored.id,
    contractId: stored.contractId,
    ledger: stored.ledger,
    ledgerClosedAt: stored.at?.toISOString() ?? "",
    txHash: stored.txHash,
    transactionIndex: stored.transactionIndex,
    operationIndex: stored.operationIndex,
    inSuccessfulContractCall: stored.inSuccessfulContractCall,
    topic: stored.topics,
    value: stored.value,
  });
}

/** Replays one archived event as a page of its own. */
export async function replayArchived(deps: ReplayDeps, incoming: IncomingEvent): Promise<void> {
  await applyPage(deps.db, deps.cache, {
    events: [incoming],
    rereads: await rereadNamespaces(deps, [incoming]),
    coverage: { kind: "replay" },
    ...(deps.epoch === undefined ? {} : { epoch: deps.epoch }),
    ...(deps.exclusive === undefined ? {} : { exclusive: deps.exclusive }),
  });
}

/** Every unresolved dead letter replayed once, in chain order; returns how many got resolved. */
export async function replayDeadLetters(deps: ReplayDeps): Promise<number> {
  const letters = await deps.db
    .select({ eventId: deadLetters.eventId })
    .from(deadLetters)
    .where(isNull(deadLetters.resolvedAt))
    .orderBy(asc(deadLetters.eventId));
  let resolved = 0;
  for (const { eventId } of letters) {
    const incoming = await archivedEvent(deps.db, eventId);
    if (incoming === null || incoming.decoded.kind !== "naming") continue;
    await replayArchived(deps, incoming);
    const [after] = await deps.db
      .select({ resolvedAt: deadLetters.resolvedAt })
      .from(deadLetters)
      .where(eq(deadLetters.eventId, eventId));
    if (after?.resolvedAt != null) resolved++;
  }
  return resolved;
}

/**
 * Hash-only legacy allocations wait as dead letters until discovery data names them. When the labels file now
 * names one, every unresolved dead letter is replayed in chain order: the allocation first, then the events
 * that failed because its namespace was missing (the registrar it deploys then gets its catch-up stream).
 * Returns how many got resolved.
 */
export async function replayNamedLegacyAllocations(deps: ReplayDeps): Promise<number> {
  const known = deps.cache.legacyLabels;
  if (known === undefined || known.size === 0) return 0;
  const waiting = await waitingLegacyAllocations(deps.db);
  if (!waiting.some((w) => w.node !== null && known.has(w.node))) return 0;
  return replayDeadLetters(deps);
}

/**
 * Projects one dead-lettered event again with the current code (namereg dead-letters retry), with the same
 * chain re-reads a page gets. The event is archived already, so only projections, its archive row's decoded
 * columns and its dead letter change. Returns the error if it fails again.
 */
export async function retryDeadLetter(
  deps: ReplayDeps,
  eventId: string,
): Promise<{ resolved: boolean; error: string | null }> {
  const { db } = deps;
  const [letter] = await db.select().from(deadLetters).where(eq(deadLetters.eventId, eventId));
  if (letter === undefined) throw new Error(`no dead letter ${eventId}`);
  if (letter.resolvedAt !== null) throw new Error(`dead letter ${eventId} is resolved already`);
  const incoming = await archivedEvent(db, eventId);
  if (incoming === null) throw new Error(`the archive has no event ${eventId}`);
  await replayArchived(deps, incoming);
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
