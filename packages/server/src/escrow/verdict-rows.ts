// The rows a verdict works on and the guarded update every verdict moves a payment with (verdicts.ts for new
// payments, settlement.ts for funded deposits and closing listings): a payment moves only from the state the
// verdict expects, so a verdict replayed after a crash finds nothing left to do.
import { and, eq } from "drizzle-orm";
import { type marketListings, marketPayments } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

export interface VerdictDeps {
  readonly db: Db;
  readonly registryId: string;
  /** Close time of a ledger, in unix seconds (from the RPC). */
  readonly ledgerCloseTime: (ledger: number) => Promise<bigint>;
  readonly now: () => Date;
  /**
   * The pass's one view of the chain: the last ledger both applied by the indexer and read for the escrow's
   * payments (null before the indexer's first batch). Every verdict of a pass judges by this same ledger, so an
   * acceptance is never seen before a payment that preceded it on chain (watcher.ts).
   */
  readonly processed: number | null;
}

export type Payment = typeof marketPayments.$inferSelect;
export type Listing = typeof marketListings.$inferSelect;

export async function setPayment(
  tx: Db,
  payment: Payment,
  from: string,
  set: Partial<typeof marketPayments.$inferInsert>,
): Promise<boolean> {
  const done = await tx
    .update(marketPayments)
    .set(set)
    .where(and(eq(marketPayments.id, payment.id), eq(marketPayments.state, from)))
    .returning({ id: marketPayments.id });
  return done.length === 1;
}

/** The payment that posted the listing's bond, if any. */
export async function bondPaymentOf(tx: Db, listing: Listing): Promise<Payment | null> {
  if (listing.bondPayment === null) return null;
  const [bond] = await tx.select().from(marketPayments).where(eq(marketPayments.id, listing.bondPayment));
  return bond ?? null;
}
