// What an operator does with billing (`namereg billing …`, docs/billing.md): list the quarantined payments, apply
// one to a namespace, resolve one by hand (refunded, say), suspend or resume a namespace. Each action is written
// to billing_actions with its reason in the same transaction as its effect.
import { namespaceNode } from "@namereg/protocol";
import { and, asc, eq, sql } from "drizzle-orm";
import { billingActions, billingPayments, namespaces, subscriptions } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { type SubscriptionState, subscriptionState } from "./terms.ts";
import { applyPeriods } from "./watcher.ts";

export class BillingOperatorError extends Error {}

type PaymentRow = typeof billingPayments.$inferSelect;

export async function listQuarantined(db: Db): Promise<PaymentRow[]> {
  return db
    .select()
    .from(billingPayments)
    .where(eq(billingPayments.state, "quarantined"))
    .orderBy(asc(billingPayments.toid), asc(billingPayments.operationIndex));
}

function requireReason(reason: string | undefined): string {
  const trimmed = reason?.trim() ?? "";
  if (trimmed === "") throw new BillingOperatorError('say why: --reason "…" is required');
  return trimmed;
}

async function quarantinedPayment(db: Db, id: string): Promise<PaymentRow> {
  const [row] = await db.select().from(billingPayments).where(eq(billingPayments.id, id));
  if (row === undefined) throw new BillingOperatorError(`no billing payment ${id}`);
  if (row.state !== "quarantined") {
    throw new BillingOperatorError(`payment ${id} is ${row.state}, not quarantined; nothing to do`);
  }
  return row;
}

async function knownNamespace(db: Db, label: string): Promise<{ label: string; node: string }> {
  const [row] = await db
    .select({ label: namespaces.label, node: namespaces.node })
    .from(namespaces)
    // Labels are lower-case on chain; an operator typing ACME means acme, as the API reads it.
    .where(eq(namespaces.label, label.toLowerCase()));
  if (row === undefined) throw new BillingOperatorError(`no namespace ${label} in the mirror`);
  return row;
}

export interface ApplyResult {
  readonly periods: number;
  readonly paidUntil: Date;
  /** Stroops of the payment that bought nothing (to refund by hand); 0 for an exact amount. */
  readonly remainder: bigint;
}

/**
 * Applies a quarantined payment to `namespace`. Periods: `periods` if given (needed for a non-XLM payment),
 * else the whole periods the amount buys at the current price. The namespace was not listed while the payment
 * sat in quarantine, so the time runs from now (or the paid-until, if later), not from the payment.
 */
export async function applyQuarantined(
  db: Db,
  id: string,
  label: string,
  opts: { reason: string | undefined; pricePerPeriod: bigint; periods?: number; now: Date },
): Promise<ApplyResult> {
  const reason = requireReason(opts.reason);
  const payment = await quarantinedPayment(db, id);
  const namespace = await knownNamespace(db, label);
  let periods = opts.periods;
  if (periods === undefined) {
    if (payment.asset !== "native") {
      throw new BillingOperatorError(
        `payment ${id} is in ${payment.asset}, not XLM: say how many with --periods N`,
      );
    }
    periods = Number(payment.amount / opts.pricePerPeriod);
  }
  if (!Number.isInteger(periods) || periods < 1) {
    throw new BillingOperatorError(
      `payment ${id} buys no whole period at the current price; resolve it instead (or give --periods N)`,
    );
  }
  const remainder =
    payment.asset === "native" && opts.periods === undefined ? payment.amount % opts.pricePerPeriod : 0n;
  const ok = await applyPeriods(db, {
    paymentId: id,
    namespace: namespace.label,
    node: namespace.node,
    periods,
    at: opts.now,
    appliedAt: opts.now,
    fromState: "quarantined",
    resolution: `applied by operator to ${namespace.label}: ${reason}`,
  });
  if (!ok) throw new BillingOperatorError(`payment ${id} was settled meanwhile; nothing done`);
  const [after] = await db
    .select({ paidUntil: billingPayments.paidUntil })
    .from(billingPayments)
    .where(eq(billingPayments.id, id));
  await db.insert(billingActions).values({
    action: "apply",
    paymentId: id,
    namespace: namespace.label,
    reason,
    detail: { periods, remainder: remainder.toString(), quarantineReason: payment.reason },
    at: opts.now,
  });
  return { periods, paidUntil: after?.paidUntil ?? opts.now, remainder };
}

/** Marks a quarantined payment settled by hand (refunded, credited elsewhere, …); it never counts as paid time. */
export async function resolveQuarantined(
  db: Db,
  id: string,
  opts: { reason: string | undefined; now: Date },
): Promise<void> {
  const reason = requireReason(opts.reason);
  await quarantinedPayment(db, id);
  await db.transaction(async (tx) => {
    const done = await tx
      .update(billingPayments)
      .set({ state: "resolved", resolution: reason, resolvedAt: opts.now })
      .where(and(eq(billingPayments.id, id), eq(billingPayments.state, "quarantined")))
      .returning({ id: billingPayments.id });
    if (done.length === 0)
      throw new BillingOperatorError(`payment ${id} was settled meanwhile; nothing done`);
    await tx.insert(billingActions).values({ action: "resolve", paymentId: id, reason, at: opts.now });
  });
}

/** Suspends (or resumes) a namespace's subscription: suspended namespaces are not listed, paid or not. */
export async function setSuspended(
  db: Db,
  label: string,
  suspended: boolean,
  opts: { reason: string | undefined; now: Date },
): Promise<SubscriptionState> {
  const reason = requireReason(opts.reason);
  const namespace = await knownNamespace(db, label);
  return db.transaction(async (tx) => {
    await tx
      .insert(subscriptions)
      .values({ namespace: namespace.label, node: namespace.node, status: "active", activeUntil: null })
      .onConflictDoNothing();
    // The action must change something: a second suspend, or a resume of what is not suspended, is an operator's
    // mistake to hear about, not a no-op recorded as an action.
    const [current] = await tx
      .select({ status: subscriptions.status })
      .from(subscriptions)
      .where(eq(subscriptions.namespace, namespace.label))
      .for("update");
    if ((current?.status === "suspended") === suspended) {
      throw new BillingOperatorError(
        `${namespace.label} is ${suspended ? "suspended already" : "not suspended"}; nothing was changed`,
      );
    }
    const [row] = await tx
      .update(subscriptions)
      .set(
        suspended
          ? { status: "suspended", suspendedAt: opts.now, suspendReason: reason, updatedAt: sql`now()` }
          : { status: "active", suspendedAt: null, suspendReason: null, updatedAt: sql`now()` },
      )
      .where(eq(subscriptions.namespace, namespace.label))
      .returning({ status: subscriptions.status, activeUntil: subscriptions.activeUntil });
    await tx.insert(billingActions).values({
      action: suspended ? "suspend" : "resume",
      namespace: namespace.label,
      reason,
      at: opts.now,
    });
    return subscriptionState(row, opts.now);
  });
}

export interface SubscriptionView {
  readonly namespace: string;
  readonly node: string;
  readonly state: SubscriptionState;
  readonly paidUntil: Date | null;
  readonly suspendReason: string | null;
}

/** Every namespace in the mirror with its subscription state (never paid: lapsed, paidUntil null). */
export async function listSubscriptions(db: Db, now: Date): Promise<SubscriptionView[]> {
  const rows = await db
    .select({
      namespace: namespaces.label,
      node: namespaces.node,
      status: subscriptions.status,
      activeUntil: subscriptions.activeUntil,
      suspendReason: subscriptions.suspendReason,
    })
    .from(namespaces)
    .leftJoin(subscriptions, eq(subscriptions.namespace, namespaces.label))
    .orderBy(asc(namespaces.label));
  return rows.map((r) => ({
    namespace: r.namespace,
    node: r.node,
    state: subscriptionState(
      r.status === null ? undefined : { status: r.status, activeUntil: r.activeUntil },
      now,
    ),
    paidUntil: r.activeUntil,
    suspendReason: r.suspendReason,
  }));
}

/** The node a namespace's payments carry as MEMO_HASH (hex). */
export function billingMemo(label: string): string {
  return namespaceNode(label);
}
