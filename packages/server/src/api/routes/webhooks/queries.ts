// The database reads and writes of the webhook console routes (webhooks.ts). Every read and write names the
// session's namespace, so an endpoint of another namespace is simply not found.
import { and, count, desc, eq, getTableColumns, inArray, lt, sql } from "drizzle-orm";
import { advisoryLockKey } from "../../../db/index.ts";
import { outboxBounds } from "../../../db/outbox.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export interface NewEndpoint {
  readonly id: string;
  readonly namespace: string;
  readonly url: string;
  readonly types: readonly string[];
  readonly secret: string;
  readonly createdAt: Date;
}

/**
 * Registers an endpoint unless the namespace already has `max`; its cursor starts at the outbox head, so it hears
 * the changes recorded from now on. Returns null at the cap. A namespace-scoped lock keeps two registrations at
 * once from both passing the count.
 */
export async function insertEndpoint(
  db: Db,
  endpoint: NewEndpoint,
  max: number,
): Promise<EndpointRow | null> {
  return db.transaction(async (tx) => {
    const key = advisoryLockKey(`namereg:webhooks:${endpoint.namespace}`);
    await tx.execute(sql`select pg_advisory_xact_lock(${key.toString()}::bigint)`);
    const [existing] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.namespace, endpoint.namespace));
    if ((existing?.n ?? 0) >= max) return null;
    const { head } = await outboxBounds(tx);
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ ...endpoint, types: [...endpoint.types], cursor: head })
      .returning();
    return row ?? null;
  });
}

export function endpointsOf(db: Db, namespace: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.namespace, namespace))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
}

export async function endpointOf(db: Db, namespace: string, id: string): Promise<EndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.namespace, namespace), eq(webhookEndpoints.id, id)));
  return row;
}

/** Deletes the endpoint with its deliveries and attempts; false when there was none. */
export async function deleteEndpoint(db: Db, namespace: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.namespace, namespace), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return deleted.length > 0;
}

/**
 * Replaces the secret; the one it replaces keeps signing until `previousUntil`. A second rotation within the
 * overlap drops the oldest secret: only the newest two ever sign.
 */
export async function rotateSecret(
  db: Db,
  namespace: string,
  id: string,
  secret: string,
  previousUntil: Date,
): Promise<boolean> {
  const updated = await db
    .update(webhookEndpoints)
    .set({
      secret,
      previousSecret: sql`${webhookEndpoints.secret}`,
      previousSecretUntil: previousUntil,
    })
    .where(and(eq(webhookEndpoints.namespace, namespace), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return updated.length > 0;
}

export type DeliveryRow = Omit<typeof webhookDeliveries.$inferSelect, "body">;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** The endpoint's deliveries, newest change first, below position `before` when given, with their attempts. */
export async function deliveriesOf(
  db: Db,
  endpointId: string,
  limit: number,
  before: number | undefined,
): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] }[]> {
  const { body: _body, ...columns } = getTableColumns(webhookDeliveries);
  const deliveries = await db
    .select(columns)
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        before === undefined ? undefined : lt(webhookDeliveries.position, before),
      ),
    )
    .orderBy(desc(webhookDeliveries.position))
    .limit(limit);
  if (deliveries.length === 0) return [];
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(
      inArray(
        webhookAttempts.deliveryId,
        deliveries.map((d) => d.id),
      ),
    )
    .orderBy(webhookAttempts.id);
  const byDelivery = Map.groupBy(attempts, (a) => a.deliveryId);
  return deliveries.map((delivery) => ({ delivery, attempts: byDelivery.get(delivery.id) ?? [] }));
}

/**
 * Queues a delivery again for an attempt now, with the schedule started afresh. A disabled endpoint is enabled
 * again (the owner says the receiver is fixed): its failing streak is cleared and its cursor moved to the outbox
 * head, so the changes recorded while it was disabled are not sent. Returns the delivery, or null if none.
 */
export async function requeueDelivery(
  db: Db,
  endpoint: EndpointRow,
  deliveryId: string,
  now: Date,
): Promise<DeliveryRow | null> {
  return db.transaction(async (tx) => {
    const { body: _body, ...columns } = getTableColumns(webhookDeliveries);
    const [row] = await tx
      .update(webhookDeliveries)
      .set({ state: "pending", attempts: 0, nextAttemptAt: now, finishedAt: null, reason: null })
      .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.id, deliveryId)))
      .returning(columns);
    if (row === undefined) return null;
    if (endpoint.disabledAt !== null) {
      const { head } = await outboxBounds(tx);
      await tx
        .update(webhookEndpoints)
        .set({ disabledAt: null, disabledReason: null, failingSince: null, cursor: head })
        .where(eq(webhookEndpoints.id, endpoint.id));
    }
    return row;
  });
}
