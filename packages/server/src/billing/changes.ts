// Billing's change events (docs/webhooks.md): `billing.paid` when periods are credited to a namespace (by the
// watcher or an operator's apply), in the same transaction; `billing.lapsed` when a namespace's paid-until passes,
// announced once per paid-until by the watcher's pass. The chain fact behind both is the payment that bought the
// time: its ledger, transaction and id.
import { stroopsToXlm } from "@namereg/protocol";
import { and, desc, eq, isNotNull, isNull, lte, ne, or } from "drizzle-orm";
import type { ChangeDraft } from "../changes/catalogue.ts";
import { appendChanges } from "../db/outbox.ts";
import { billingPayments, subscriptions } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

type PaymentRow = typeof billingPayments.$inferSelect;

export function paidChange(
  payment: PaymentRow,
  credited: { namespace: string; node: string; periods: number; paidUntil: Date },
): ChangeDraft {
  return {
    type: "billing.paid",
    namespace: credited.namespace,
    node: credited.node,
    ledger: payment.ledger,
    txHash: payment.txHash,
    eventId: payment.id,
    at: payment.closedAt,
    data: {
      periods: credited.periods,
      amountXlm: payment.asset === "native" ? stroopsToXlm(payment.amount) : null,
      paidUntil: credited.paidUntil.toISOString(),
    },
  };
}

/**
 * Announces every paid-until that has passed by `now` and was not announced yet; returns how many. Each is its own
 * transaction, guarded by the paid-until it announces, so a payment applied meanwhile (which moves it) wins.
 */
export async function announceLapses(db: Db, now: Date): Promise<number> {
  const due = await db
    .select({
      namespace: subscriptions.namespace,
      node: subscriptions.node,
      paidUntil: subscriptions.activeUntil,
    })
    .from(subscriptions)
    .where(
      and(
        isNotNull(subscriptions.activeUntil),
        lte(subscriptions.activeUntil, now),
        or(
          isNull(subscriptions.lapseAnnouncedFor),
          ne(subscriptions.lapseAnnouncedFor, subscriptions.activeUntil),
        ),
      ),
    );
  let announced = 0;
  for (const s of due) {
    const paidUntil = s.paidUntil;
    if (paidUntil === null) continue;
    const done = await db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(subscriptions)
        .set({ lapseAnnouncedFor: paidUntil })
        .where(and(eq(subscriptions.namespace, s.namespace), eq(subscriptions.activeUntil, paidUntil)))
        .returning({ namespace: subscriptions.namespace });
      if (claimed === undefined) return false;
      const [bought] = await tx
        .select()
        .from(billingPayments)
        .where(and(eq(billingPayments.namespace, s.namespace), eq(billingPayments.state, "applied")))
        .orderBy(desc(billingPayments.appliedAt), desc(billingPayments.id))
        .limit(1);
      if (bought === undefined) return false;
      await appendChanges(tx, [
        {
          type: "billing.lapsed",
          namespace: s.namespace,
          ...(s.node === null ? {} : { node: s.node }),
          ledger: bought.ledger,
          txHash: bought.txHash,
          eventId: bought.id,
          at: bought.closedAt,
          data: { paidUntil: paidUntil.toISOString() },
        },
      ]);
      return true;
    });
    if (done) announced++;
  }
  return announced;
}
