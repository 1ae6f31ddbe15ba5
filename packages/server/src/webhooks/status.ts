// The `Webhook deliverer` status component (docs/api.md "GET /v1/status"), shown while any endpoint is
// registered: `passAgeSeconds` since the deliverer's last recorded pass (it records one at least every 5 s while
// it runs), `pending` deliveries, and `disabledEndpoints`. Unknown before the first pass; lagging after 60 s and
// down after 120 s without a pass, the rule the watchers share (watchers/watcher-state.ts). A receiver failing
// is its owner's news (their delivery log), not the service's: it does not degrade the component.
import { count, eq, isNotNull, min } from "drizzle-orm";
import { z } from "zod";
import { webhookDeliverer, webhookDeliveries, webhookEndpoints } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { cursorAgeSeconds, watcherState } from "../watchers/watcher-state.ts";

export const DelivererComponent = z.object({
  name: z.literal("Webhook deliverer"),
  state: z.enum(["operational", "lagging", "degraded", "down", "unknown"]),
  passAgeSeconds: z.number().int().nonnegative().nullable(),
  pending: z.number().int().nonnegative().nullable(),
  disabledEndpoints: z.number().int().nonnegative().nullable(),
});

export type DelivererComponentState = z.infer<typeof DelivererComponent>;

export const UNKNOWN_DELIVERER: DelivererComponentState = {
  name: "Webhook deliverer",
  state: "unknown",
  passAgeSeconds: null,
  pending: null,
  disabledEndpoints: null,
};

/** The component, or null while no endpoint is registered (nothing to deliver, nothing to report). */
export async function delivererComponent(db: Db, now: Date): Promise<DelivererComponentState | null> {
  const [endpoints] = await db.select({ n: count() }).from(webhookEndpoints);
  if ((endpoints?.n ?? 0) === 0) return null;
  const [disabled] = await db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(isNotNull(webhookEndpoints.disabledAt));
  const [pending] = await db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.state, "pending"));
  const [row] = await db
    .select({ passAt: webhookDeliverer.passAt })
    .from(webhookDeliverer)
    .where(eq(webhookDeliverer.id, 1));
  const counts = { pending: pending?.n ?? 0, disabledEndpoints: disabled?.n ?? 0 };
  const passAt = row?.passAt ?? null;
  if (passAt === null) return { ...UNKNOWN_DELIVERER, ...counts };
  const age = cursorAgeSeconds(passAt, now);
  return { name: "Webhook deliverer", state: watcherState(age, 0), passAgeSeconds: age, ...counts };
}

/** Deliveries waiting and the age of the oldest (its lag), for /metrics (metrics/database-gauges.ts). */
export async function readDeliveryBacklog(
  db: Db,
  now: Date,
): Promise<{ pending: number; oldestPendingAgeSeconds: number }> {
  const [row] = await db
    .select({ n: count(), oldest: min(webhookDeliveries.createdAt) })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.state, "pending"));
  const oldest = row?.oldest ?? null;
  return {
    pending: row?.n ?? 0,
    oldestPendingAgeSeconds: oldest === null ? 0 : Math.max(0, (now.getTime() - oldest.getTime()) / 1000),
  };
}
