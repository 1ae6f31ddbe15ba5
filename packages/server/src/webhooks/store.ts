// The deliverer's reads and writes (deliverer.ts): its fencing epoch, the fan-out from the change outbox into
// deliveries, the head delivery of each endpoint, and the record of one attempt. Every write checks the epoch in
// its own transaction, so a deliverer that lost its lock without noticing cannot record anything once its
// successor has started (a late send is then a duplicate, which at-least-once allows, never a lost change).
import { randomBytes } from "node:crypto";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { isChangeType } from "../changes/catalogue.ts";
import { changePayload, readChanges } from "../db/outbox.ts";
import { webhookAttempts, webhookDeliverer, webhookDeliveries, webhookEndpoints } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

/** The deliverer's writes were about to land on behalf of a deliverer that has been replaced. */
export class DelivererFencedError extends Error {
  constructor(mine: number, current: number | null) {
    super(`deliverer epoch ${mine} was superseded by ${current ?? "none"}; this process no longer delivers`);
    this.name = "DelivererFencedError";
  }
}

/** Call once the deliverer's lock is held: a new epoch, waiting for the previous holder's writes in flight. */
export async function takeDelivererEpoch(db: Db, now: Date): Promise<number> {
  const [row] = await db
    .insert(webhookDeliverer)
    .values({ id: 1, epoch: 1, takenAt: now })
    .onConflictDoUpdate({
      target: webhookDeliverer.id,
      set: { epoch: sql`${webhookDeliverer.epoch} + 1`, takenAt: now },
    })
    .returning({ epoch: webhookDeliverer.epoch });
  if (row === undefined) throw new Error("could not take a deliverer epoch");
  return row.epoch;
}

async function assertDeliverer(tx: Db, epoch: number): Promise<void> {
  const [row] = await tx
    .select({ epoch: webhookDeliverer.epoch })
    .from(webhookDeliverer)
    .where(eq(webhookDeliverer.id, 1))
    .for("share");
  if (row?.epoch !== epoch) throw new DelivererFencedError(epoch, row?.epoch ?? null);
}

/** Records a completed pass (the `/v1/status` component's age). */
export async function markPass(db: Db, epoch: number, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await assertDeliverer(tx, epoch);
    await tx.update(webhookDeliverer).set({ passAt: at }).where(eq(webhookDeliverer.id, 1));
  });
}

export const newDeliveryId = (): string => `msg_${randomBytes(16).toString("base64url")}`;

/**
 * For each enabled endpoint, turns the outbox changes after its cursor (its namespace's, up to `batch`) into
 * deliveries of the types it hears, and moves its cursor past them, in one transaction per endpoint. A change
 * already turned into a delivery (a crash between two passes) is skipped by the unique (endpoint, position).
 * `more`: some endpoint had a full batch, so more changes may be waiting behind it.
 */
export async function fanOut(
  db: Db,
  epoch: number,
  now: Date,
  batch: number,
): Promise<{ created: number; more: boolean }> {
  const endpoints = await db
    .select({
      id: webhookEndpoints.id,
      namespace: webhookEndpoints.namespace,
      types: webhookEndpoints.types,
      cursor: webhookEndpoints.cursor,
    })
    .from(webhookEndpoints)
    .where(isNull(webhookEndpoints.disabledAt));
  let created = 0;
  let more = false;
  for (const endpoint of endpoints) {
    const changes = await readChanges(db, endpoint.cursor, batch, { namespace: endpoint.namespace });
    if (changes.length === batch) more = true;
    const last = changes.at(-1);
    if (last === undefined) continue;
    const wanted = new Set(endpoint.types);
    const rows = changes
      .filter((change) => isChangeType(change.type) && wanted.has(change.type))
      .map((change) => {
        const row = {
          id: newDeliveryId(),
          endpointId: endpoint.id,
          position: change.id,
          type: change.type,
          createdAt: now,
        };
        try {
          return { ...row, body: changePayload(change), state: "pending", nextAttemptAt: now };
        } catch (error) {
          // Over the payload bound: logged for the owner, never sent in part.
          const reason = error instanceof Error ? error.message : String(error);
          return { ...row, body: "", state: "failed", reason, finishedAt: now };
        }
      });
    await db.transaction(async (tx) => {
      await assertDeliverer(tx, epoch);
      if (rows.length > 0) {
        const inserted = await tx
          .insert(webhookDeliveries)
          .values(rows)
          .onConflictDoNothing()
          .returning({ id: webhookDeliveries.id });
        created += inserted.length;
      }
      // Only forward: an endpoint re-enabled meanwhile has had its cursor moved to the head already.
      await tx
        .update(webhookEndpoints)
        .set({ cursor: sql`greatest(${webhookEndpoints.cursor}, ${last.id})` })
        .where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.disabledAt)));
    });
  }
  return { created, more };
}

export interface HeadDelivery {
  readonly id: string;
  readonly endpointId: string;
  readonly namespace: string;
  readonly url: string;
  readonly secret: string;
  readonly previousSecret: string | null;
  readonly previousSecretUntil: Date | null;
  readonly body: string;
  readonly attempts: number;
  readonly nextAttemptAt: Date | null;
  readonly failingSince: Date | null;
}

/**
 * The oldest pending delivery of every enabled endpoint: the only one of each that may be attempted, since an
 * endpoint's next change waits until the previous one is delivered or given up.
 */
export async function headDeliveries(db: Db): Promise<HeadDelivery[]> {
  // One indexed probe per enabled endpoint (a lateral join): the cost follows the endpoints, not the backlog.
  const head = db
    .select({
      id: webhookDeliveries.id,
      body: webhookDeliveries.body,
      attempts: webhookDeliveries.attempts,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
    })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, webhookEndpoints.id), eq(webhookDeliveries.state, "pending")))
    .orderBy(asc(webhookDeliveries.position))
    .limit(1)
    .as("head");
  return db
    .select({
      id: head.id,
      endpointId: webhookEndpoints.id,
      namespace: webhookEndpoints.namespace,
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      previousSecret: webhookEndpoints.previousSecret,
      previousSecretUntil: webhookEndpoints.previousSecretUntil,
      body: head.body,
      attempts: head.attempts,
      nextAttemptAt: head.nextAttemptAt,
      failingSince: webhookEndpoints.failingSince,
    })
    .from(webhookEndpoints)
    .innerJoinLateral(head, sql`true`)
    .where(isNull(webhookEndpoints.disabledAt));
}

export interface AttemptRecord {
  readonly deliveryId: string;
  readonly endpointId: string;
  readonly attemptedAt: Date;
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly responseExcerpt: string | null;
  /** What the attempt settled. */
  readonly outcome:
    | { readonly kind: "delivered" }
    | { readonly kind: "retry"; readonly nextAttemptAt: Date }
    | { readonly kind: "failed"; readonly reason: string };
  /** Set when the endpoint is to be disabled by this attempt, with the reason its owner sees. */
  readonly disable: string | null;
}

/**
 * Records one attempt and what it settled, in one transaction: the attempt row, the delivery's state, the
 * endpoint's failing streak, and, when `disable` is set, the endpoint disabled with every pending delivery of it
 * failed. Returns false when the delivery is gone (its endpoint was deleted meanwhile) or no longer pending.
 */
export async function recordAttempt(
  db: Db,
  epoch: number,
  attempt: AttemptRecord,
  failingSince: Date | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await assertDeliverer(tx, epoch);
    const { outcome, attemptedAt } = attempt;
    const next = outcome.kind === "retry" ? outcome.nextAttemptAt : null;
    const updated = await tx
      .update(webhookDeliveries)
      .set({
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        state: outcome.kind === "retry" ? "pending" : outcome.kind,
        nextAttemptAt: next,
        finishedAt: outcome.kind === "retry" ? null : attemptedAt,
        reason: outcome.kind === "failed" ? outcome.reason : null,
      })
      .where(and(eq(webhookDeliveries.id, attempt.deliveryId), eq(webhookDeliveries.state, "pending")))
      .returning({ id: webhookDeliveries.id });
    if (updated.length === 0) return false;
    await tx.insert(webhookAttempts).values({
      deliveryId: attempt.deliveryId,
      attemptedAt,
      statusCode: attempt.statusCode,
      durationMs: attempt.durationMs,
      error: attempt.error,
      responseExcerpt: attempt.responseExcerpt,
      nextAttemptAt: next,
    });
    const streak = outcome.kind === "delivered" ? null : (failingSince ?? attemptedAt);
    // A success on an endpoint that was not failing changes nothing there: the common case costs no write.
    if (streak !== failingSince) {
      await tx
        .update(webhookEndpoints)
        .set({ failingSince: streak })
        .where(eq(webhookEndpoints.id, attempt.endpointId));
    }
    if (attempt.disable !== null) await disableEndpoint(tx, attempt.endpointId, attempt.disable, attemptedAt);
    return true;
  });
}

/** Disables an endpoint; its pending deliveries fail with the same reason (a retry by its owner re-enables it). */
async function disableEndpoint(tx: Db, endpointId: string, reason: string, at: Date): Promise<void> {
  await tx
    .update(webhookEndpoints)
    .set({ disabledAt: at, disabledReason: reason })
    .where(eq(webhookEndpoints.id, endpointId));
  await tx
    .update(webhookDeliveries)
    .set({ state: "failed", reason: `endpoint disabled: ${reason}`, nextAttemptAt: null, finishedAt: at })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.state, "pending")));
}
