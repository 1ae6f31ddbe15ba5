// Billing (docs/billing.md): subscriptions, received payments and operator actions.
import { index, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";
import { tz, u64 } from "./columns.ts";

/**
 * Billing subscriptions per namespace (docs/billing.md); the billing watcher and the operator write it, the
 * directory and the owner's console read it. `status` is the operator's standing (`active` or `suspended`);
 * whether the namespace is paid is `activeUntil` (paid until, exclusive) against the clock.
 */
export const subscriptions = pgTable("subscriptions", {
  namespace: text("namespace").primaryKey(),
  status: text("status").notNull(),
  activeUntil: tz("active_until"),
  updatedAt: tz("updated_at").notNull().defaultNow(),
  /** Namespace node (hex): the memo hash its payments carry. */
  node: text("node"),
  suspendedAt: tz("suspended_at"),
  suspendReason: text("suspend_reason"),
  /** The paid-until whose lapse was announced as a `billing.lapsed` change (billing/changes.ts). */
  lapseAnnouncedFor: tz("lapse_announced_for"),
});

/**
 * Every payment the billing account received, written in the transaction that advances the billing cursor.
 * `applied` (periods credited to `namespace`), `quarantined` (`reason`: nothing is credited until an operator
 * applies or resolves it), `resolved` (settled by hand, `resolution` says how).
 */
export const billingPayments = pgTable(
  "billing_payments",
  {
    /** `txHash:operationIndex`. */
    id: text("id").primaryKey(),
    ledger: integer("ledger").notNull(),
    toid: text("toid").notNull(),
    closedAt: tz("closed_at").notNull(),
    txHash: text("tx_hash").notNull(),
    operationIndex: integer("operation_index").notNull(),
    source: text("source").notNull(),
    asset: text("asset").notNull(),
    amount: u64("amount").notNull(),
    memoType: text("memo_type").notNull(),
    memo: text("memo"),
    state: text("state").notNull(),
    reason: text("reason"),
    namespace: text("namespace"),
    periods: integer("periods"),
    /** The namespace's paid-until right after this payment was applied. */
    paidUntil: tz("paid_until"),
    appliedAt: tz("applied_at"),
    resolution: text("resolution"),
    resolvedAt: tz("resolved_at"),
    receivedAt: tz("received_at").notNull().defaultNow(),
  },
  (t) => [index("billing_payments_state_idx").on(t.state, t.toid)],
);

/** What operators did to billing (apply, resolve, suspend, resume), each with its reason. */
export const billingActions = pgTable("billing_actions", {
  id: serial("id").primaryKey(),
  at: tz("at").notNull().defaultNow(),
  action: text("action").notNull(),
  paymentId: text("payment_id"),
  namespace: text("namespace"),
  reason: text("reason").notNull(),
  detail: jsonb("detail"),
});
