// The billing watcher (docs/billing.md): one pass reads the billing account's new payments from its durable
// cursor (watchers/payment-ingest.ts) and then applies, in chain order, each payment it can apply with certainty;
// everything else is quarantined for an operator with its reason. A payment is stored in the transaction that
// advances the cursor, and applied in a transaction that moves it out of `pending` only once, so a watcher killed
// anywhere neither loses nor double-counts a payment.
import type { rpc } from "@stellar/stellar-sdk";
import { and, asc, eq, sql } from "drizzle-orm";
import type { AccountPayment, AccountPaymentsSource } from "../chain/account-payments.ts";
import { appendChanges } from "../db/outbox.ts";
import { billingPayments, namespaces, subscriptions } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { processedLedger } from "../watchers/indexer-progress.ts";
import { ingestPayments } from "../watchers/payment-ingest.ts";
import { runPasses } from "../watchers/run-passes.ts";
import { announceLapses, paidChange } from "./changes.ts";
import { BILLING_CATCH_UP, BILLING_CURSOR } from "./status.ts";
import { extendPaidUntil, judgePayment, type QuarantineReason } from "./terms.ts";

export interface BillingWatcherOptions {
  readonly db: Db;
  readonly server: rpc.Server;
  readonly networkPassphrase: string;
  readonly account: string;
  /** Stroops per 30-day period. */
  readonly pricePerPeriod: bigint;
  /** First ledger on the very first run; default: the chain head then. */
  readonly startLedger?: number | null;
  readonly now?: () => Date;
  readonly pageSize?: number;
  /** Most getTransactions pages per pass, so one pass stays short while catching up. */
  readonly maxPages?: number;
}

export interface BillingPassResult {
  readonly received: number;
  readonly applied: number;
  readonly quarantined: number;
  /** Payments naming a node the indexer may not have reached yet: decided on a later pass. */
  readonly waiting: number;
  /** Paid-untils that passed and were announced (billing.lapsed). */
  readonly lapsed: number;
}

type PaymentRow = typeof billingPayments.$inferSelect;

/** Stores new payments, in the transaction that advances the cursor (the watcher's and catch-up's). */
export async function storeBillingPayments(tx: Db, payments: readonly AccountPayment[]): Promise<void> {
  await tx
    .insert(billingPayments)
    .values(
      payments.map(({ kind, ...p }) =>
        // Only a `payment` operation is judged (docs/billing.md); money that arrived any other way is quarantined
        // as it is stored, never credited on a guess nor left unseen.
        kind === "payment" ? { ...p, state: "pending" } : { ...p, state: "quarantined", reason: kind },
      ),
    )
    .onConflictDoNothing();
}

export class BillingWatcher {
  readonly #o: BillingWatcherOptions;
  readonly #now: () => Date;
  readonly #source: AccountPaymentsSource;

  constructor(options: BillingWatcherOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    this.#source = {
      server: options.server,
      networkPassphrase: options.networkPassphrase,
      account: options.account,
      ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
    };
  }

  /** Stores new payments as `pending` (other ways of paying as `quarantined`) with the cursor, page by page. */
  async ingest(): Promise<number> {
    const { db, server } = this.#o;
    const { count } = await ingestPayments({
      db,
      cursorName: BILLING_CURSOR,
      source: this.#source,
      startLedger: async () => this.#o.startLedger ?? (await server.getLatestLedger()).sequence,
      now: this.#now,
      ...(this.#o.maxPages === undefined ? {} : { maxPages: this.#o.maxPages }),
      store: storeBillingPayments,
      what: "billing watcher",
      recovery: BILLING_CATCH_UP,
    });
    return count;
  }

  /** Decides every pending payment in chain order; stops at the first that must wait for the indexer. */
  async settle(): Promise<Omit<BillingPassResult, "received" | "lapsed">> {
    const { db } = this.#o;
    const pending = await db
      .select()
      .from(billingPayments)
      .where(eq(billingPayments.state, "pending"))
      .orderBy(asc(billingPayments.toid), asc(billingPayments.operationIndex));
    let applied = 0;
    let quarantined = 0;
    const processed = await processedLedger(db);
    for (const [index, payment] of pending.entries()) {
      const outcome = await this.#decide(payment, processed);
      if (outcome === "wait") return { applied, quarantined, waiting: pending.length - index };
      if (outcome === "applied") applied++;
      if (outcome === "quarantined") quarantined++;
    }
    return { applied, quarantined, waiting: 0 };
  }

  async #decide(
    payment: PaymentRow,
    processed: number | null,
  ): Promise<"applied" | "quarantined" | "wait" | "taken"> {
    const verdict = judgePayment(payment, this.#o.pricePerPeriod);
    if (verdict.kind === "quarantine") {
      await quarantine(this.#o.db, payment.id, verdict.reason);
      return "quarantined";
    }
    const [namespace] = await this.#o.db
      .select({ label: namespaces.label, allocatedLedger: namespaces.allocatedLedger })
      .from(namespaces)
      .where(eq(namespaces.node, verdict.node));
    // Unknown when paid: not in the mirror, or allocated only after the payment's ledger. Judged as of the
    // payment, so a watcher deciding late (after downtime, a crash) quarantines what a prompt one would have.
    if (namespace === undefined || namespace.allocatedLedger > payment.ledger) {
      // Certain only once the indexer has passed the payment's ledger (a namespace allocated in that ledger or
      // before would be in the mirror by then).
      if (namespace === undefined && (processed === null || processed < payment.ledger)) return "wait";
      await quarantine(this.#o.db, payment.id, "unknown_namespace");
      return "quarantined";
    }
    // A payment buys time from the moment it was made (its ledger's close time), not from when this pass ran,
    // so a watcher catching up after downtime credits exactly what an uninterrupted one would have.
    const ok = await applyPeriods(this.#o.db, {
      paymentId: payment.id,
      namespace: namespace.label,
      node: verdict.node,
      periods: verdict.periods,
      at: payment.closedAt,
      appliedAt: this.#now(),
      fromState: "pending",
    });
    return ok ? "applied" : "taken";
  }

  async runOnce(): Promise<BillingPassResult> {
    const received = await this.ingest();
    const settled = await this.settle();
    return { received, ...settled, lapsed: await announceLapses(this.#o.db, this.#now()) };
  }

  /** Passes until aborted, `pollMs` apart; a failed pass is reported and retried. */
  async run(
    signal: AbortSignal,
    opts: { pollMs?: number; onError?: (err: unknown, retryInMs: number) => void } = {},
  ): Promise<void> {
    await runPasses(signal, () => this.runOnce(), {
      pollMs: opts.pollMs ?? 5000,
      ...(opts.onError === undefined ? {} : { onError: opts.onError }),
    });
  }
}

async function quarantine(db: Db, id: string, reason: QuarantineReason): Promise<void> {
  await db
    .update(billingPayments)
    .set({ state: "quarantined", reason })
    .where(and(eq(billingPayments.id, id), eq(billingPayments.state, "pending")));
}

export interface ApplyPeriods {
  readonly paymentId: string;
  readonly namespace: string;
  readonly node: string;
  readonly periods: number;
  /** The instant the periods are bought at: paid-until extends from max(at, paid-until). */
  readonly at: Date;
  readonly appliedAt: Date;
  /** The state the payment must still be in; anything else means someone applied it already. */
  readonly fromState: "pending" | "quarantined";
  /** Set by an operator's apply. */
  readonly resolution?: string;
}

/**
 * Credits `periods` to the namespace and marks the payment applied, in one transaction; returns false when the
 * payment had already left `fromState` (applied by a concurrent pass or an operator), so nothing is counted twice.
 */
export async function applyPeriods(db: Db, a: ApplyPeriods): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .select()
      .from(billingPayments)
      .where(and(eq(billingPayments.id, a.paymentId), eq(billingPayments.state, a.fromState)))
      .for("update");
    if (claimed === undefined) return false;
    // The row exists before it is locked, so two appliers serialise on it rather than both inserting.
    await tx
      .insert(subscriptions)
      .values({ namespace: a.namespace, node: a.node, status: "active", activeUntil: null })
      .onConflictDoNothing();
    const [current] = await tx
      .select({ activeUntil: subscriptions.activeUntil })
      .from(subscriptions)
      .where(eq(subscriptions.namespace, a.namespace))
      .for("update");
    const paidUntil = extendPaidUntil(current?.activeUntil ?? null, a.at, a.periods);
    await tx
      .update(subscriptions)
      .set({ activeUntil: paidUntil, node: a.node, updatedAt: sql`now()` })
      .where(eq(subscriptions.namespace, a.namespace));
    await tx
      .update(billingPayments)
      .set({
        state: "applied",
        namespace: a.namespace,
        periods: a.periods,
        paidUntil,
        appliedAt: a.appliedAt,
        ...(a.resolution === undefined ? {} : { resolution: a.resolution, resolvedAt: a.appliedAt }),
      })
      .where(eq(billingPayments.id, a.paymentId));
    // Last: it holds the outbox's lock until commit.
    await appendChanges(tx, [
      paidChange(claimed, { namespace: a.namespace, node: a.node, periods: a.periods, paidUntil }),
    ]);
    return true;
  });
}
