// The change outbox (docs/webhooks.md): one row per change event announced to apps, written in the same
// transaction as the change itself (an indexer batch, a watcher's verdict), so a crash loses none and a rolled-back
// transaction announces none. `/v1/stream` and the webhook deliverer both read it in `id` order.
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { byteKey, tz } from "./columns.ts";

export const changeOutbox = pgTable(
  "change_outbox",
  {
    /**
     * The event's position: the stream's SSE id. Writers take one lock before they draw ids (db/outbox.ts), so
     * ids become visible in increasing order and a reader that has seen `n` never later finds a smaller one.
     */
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** A change type of changes/catalogue.ts (`name.issued`, …). */
    type: byteKey("type").notNull(),
    /** The namespace label the change belongs to (filters, and whose owner's webhooks hear it). */
    namespace: byteKey("namespace").notNull(),
    /** The full name (`alice.acme`, `pay.alice.acme`) when the change is about one. */
    name: text("name"),
    /** 64-hex node of the name, subname or namespace the change is about. */
    node: text("node"),
    ledger: integer("ledger").notNull(),
    txHash: text("tx_hash").notNull(),
    /**
     * What the change came from: the archive's event id for chain events, the payment id (`txHash:op`) or a
     * watcher's own key for watcher events. With `type` it is unique, so a replay writes nothing twice.
     */
    eventId: byteKey("event_id").notNull(),
    /** Chain time of `ledger`; null when unknown (never filled with the time it was recorded). */
    at: tz("at"),
    /** The type's own fields (changes/catalogue.ts); the common ones are the columns above. */
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** Written by a back-fill or a dead-letter replay: the change reached the mirror late. */
    backfill: boolean("backfill").notNull().default(false),
    /** When the row was written: the payload's `timestamp`, and what retention counts from. */
    createdAt: tz("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("change_outbox_event_type_idx").on(t.eventId, t.type),
    index("change_outbox_namespace_idx").on(t.namespace, t.id),
  ],
);

/** One row: the outbox's retention horizon. Ids up to `prunedThrough` are gone; a resume from below it is reset. */
export const changeOutboxState = pgTable("change_outbox_state", {
  id: integer("id").primaryKey().default(1),
  prunedThrough: bigint("pruned_through", { mode: "number" }).notNull().default(0),
  prunedAt: tz("pruned_at"),
});
