// Projects archived events again with the current code (applyBatch's replay mode): a dead letter an operator
// retries, or — after a backfill filled a gap — the events that were dead-lettered because the state they
// change was in the gap (a `locked` of a namespace whose allocation the gap held). The events are archived
// already; only projections, their archive rows' decoded columns and their dead letters change.
import { asc, eq, isNull } from "drizzle-orm";
import { deadLetters, events } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { applyBatch, type IndexerCache } from "./apply-batch.ts";
import { decodeRawEvent, type IncomingEvent } from "./decode.ts";
import { type RereadDeps, rereadNamespaces } from "./rereads.ts";

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

/** Replays one archived event; true when its dead letter (if any) is resolved afterwards. */
export async function replayArchived(
  deps: RereadDeps & { db: Db; cache: IndexerCache; epoch?: number; exclusive?: boolean },
  incoming: IncomingEvent,
): Promise<void> {
  const emitter = deps.cache.contracts.get(incoming.row.contractId);
  await applyBatch(deps.db, deps.cache, {
    streamId: emitter?.streamId ?? null,
    events: [incoming],
    next: null,
    rereads: await rereadNamespaces(deps, [incoming]),
    mode: "replay",
    ...(deps.epoch === undefined ? {} : { epoch: deps.epoch }),
    ...(deps.exclusive === undefined ? {} : { exclusive: deps.exclusive }),
  });
}

/** Every unresolved dead letter replayed once, in chain order; returns how many got resolved. */
export async function replayDeadLetters(
  deps: RereadDeps & { db: Db; cache: IndexerCache; epoch?: number; exclusive?: boolean },
): Promise<number> {
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
