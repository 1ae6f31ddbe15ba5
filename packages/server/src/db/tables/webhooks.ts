// Hosted webhooks (docs/webhooks.md): the endpoints namespace owners register, one delivery per (endpoint,
// outbox change) with its attempts, and the deliverer's own row (its fencing epoch and its last pass). Deliveries
// copy the signed body, so a retry sends the same bytes and the log outlives the outbox's retention.
import { bigint, bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tz } from "./columns.ts";

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    /** The namespace label whose changes it hears; only its owner manages it. */
    namespace: text("namespace").notNull(),
    url: text("url").notNull(),
    /** Change types (changes/catalogue.ts) it hears. */
    types: jsonb("types").$type<string[]>().notNull(),
    /** `whsec_…`: it must sign, so it is kept as given, never hashed; shown to the owner only when made. */
    secret: text("secret").notNull(),
    /** The secret before the last rotation, still signing (beside the new one) until `previousSecretUntil`. */
    previousSecret: text("previous_secret"),
    previousSecretUntil: tz("previous_secret_until"),
    createdAt: tz("created_at").notNull(),
    /** The last outbox position the deliverer has made deliveries up to for it (the head when registered). */
    cursor: bigint("cursor", { mode: "number" }).notNull(),
    /** Set when it was disabled (410 Gone, or failing too long), with the reason the owner sees. */
    disabledAt: tz("disabled_at"),
    disabledReason: text("disabled_reason"),
    /** The first failed attempt since its last success; null while it succeeds. */
    failingSince: tz("failing_since"),
  },
  (t) => [index("webhook_endpoints_namespace_idx").on(t.namespace, t.createdAt)],
);

/**
 * One change for one endpoint. `id` is the `webhook-id` header, the same on every attempt. `pending` until
 * `delivered`, or `failed` (given up, or its endpoint disabled: `reason`).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The change's outbox position (`change_outbox.id`): the order deliveries to one endpoint go in. */
    position: bigint("position", { mode: "number" }).notNull(),
    type: text("type").notNull(),
    /** The signed body, exactly as sent. */
    body: text("body").notNull(),
    state: text("state").notNull(),
    /** Attempts since it was (re)queued; picks the next wait of the schedule. */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: tz("next_attempt_at"),
    createdAt: tz("created_at").notNull(),
    finishedAt: tz("finished_at"),
    reason: text("reason"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_endpoint_position_idx").on(t.endpointId, t.position),
    index("webhook_deliveries_pending_idx").on(t.state, t.endpointId, t.position),
  ],
);

/** Every attempt, for the owner's delivery log: the answer's status, its first 1 KiB, or what went wrong. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: tz("attempted_at").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    responseExcerpt: text("response_excerpt"),
    /** When the next attempt is due after this one; null when this one settled the delivery. */
    nextAttemptAt: tz("next_attempt_at"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.id)],
);

/** One row: the deliverer's fencing epoch (bumped by each new holder of its lock) and its last completed pass. */
export const webhookDeliverer = pgTable("webhook_deliverer", {
  id: integer("id").primaryKey().default(1),
  epoch: bigint("epoch", { mode: "number" }).notNull().default(0),
  takenAt: tz("taken_at"),
  passAt: tz("pass_at"),
});
