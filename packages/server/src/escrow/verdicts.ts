// The rules of docs/market.md "Buyer flow" for a payment the escrow has just received: a bond, a deposit, a float
// top-up, or something to send back. Each verdict is one database transaction that moves the payment (and
// listing) to its next state and records the obligations it creates, guarded by the state it expects
// (verdict-rows.ts), so a replay after a crash finds nothing left to do. Verdicts that depend on registry state
// wait until the indexer has processed the ledgers they depend on (registry-view.ts). Funded deposits and
// closing listings are settled in settlement.ts.

import { and, asc, eq } from "drizzle-orm";
import { appendChanges } from "../db/outbox.ts";
import { marketIntents, marketListings, marketPayments } from "../db/tables.ts";
import { listedChange } from "./changes.ts";
import { owe } from "./obligations.ts";
import { proposalBefore } from "./registry-view.ts";
import { type Listing, type Payment, setPayment, type VerdictDeps } from "./verdict-rows.ts";

/** The memo text an operator puts on a payment that tops up the escrow's own float (kept, not refunded). */
export const FLOAT_MEMO = "float";

/** Sends the whole payment back to where it came from. */
async function returnPayment(
  deps: VerdictDeps,
  payment: Payment,
  purpose: "refund" | "bounce",
  verdict: string,
  listingId: string | null = null,
): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    if (!(await setPayment(tx, payment, "new", { state: "returned", verdict, decidedAt: now, listingId })))
      return;
    await owe(
      tx,
      [{ paymentId: payment.id, purpose, destination: payment.source, amount: payment.amount }],
      now,
    );
  });
}

/**
 * Decides the payments not yet decided, in chain order. Stops at the first one whose verdict needs the indexer
 * to catch up, so two payments for one listing are always judged in the order the chain saw them.
 */
export async function decideNewPayments(deps: VerdictDeps): Promise<number> {
  const pending = await deps.db
    .select()
    .from(marketPayments)
    .where(eq(marketPayments.state, "new"))
    .orderBy(asc(marketPayments.toid), asc(marketPayments.operationIndex));
  let decided = 0;
  for (const payment of pending) {
    if (!(await decidePayment(deps, payment))) break;
    decided++;
  }
  return decided;
}

/** False when the verdict must wait for the indexer. */
async function decidePayment(deps: VerdictDeps, payment: Payment): Promise<boolean> {
  const { db } = deps;
  if (payment.asset !== "native") {
    // Only XLM is accepted; anything else is held for the operator, never absorbed.
    const now = deps.now();
    await db.transaction(async (tx) => {
      if (!(await setPayment(tx, payment, "new", { state: "parked", verdict: "not_native", decidedAt: now })))
        return;
    });
    return true;
  }
  if (payment.memoType === "text" && payment.memo === FLOAT_MEMO) {
    await setPayment(db, payment, "new", { state: "float", verdict: "float", decidedAt: deps.now() });
    return true;
  }
  if (payment.memoType !== "hash" || payment.memo === null) {
    await returnPayment(deps, payment, "bounce", "no_hash_memo");
    return true;
  }
  const [bondListing] = await db
    .select()
    .from(marketListings)
    .where(eq(marketListings.bondMemo, payment.memo));
  if (bondListing !== undefined) {
    await decideBond(deps, payment, bondListing);
    return true;
  }
  const [intent] = await db.select().from(marketIntents).where(eq(marketIntents.memo, payment.memo));
  if (intent === undefined) {
    await returnPayment(deps, payment, "bounce", "unknown_memo");
    return true;
  }
  const [listing] = await db.select().from(marketListings).where(eq(marketListings.id, intent.listingId));
  if (listing === undefined) throw new Error(`intent ${intent.id} names no listing`);
  // A console cancel closes the listing to payments made after it; one made before it (its ledger at or below the
  // head the cancel read) is judged like any other, so a deposit paid while the proposal was live is held and then
  // settled by what the registry does next (docs/market.md "Seller flow" 4), never bounced while the buyer can
  // still accept.
  if (
    listing.state !== "active" ||
    (listing.cancelRequestedAt !== null &&
      (listing.cancelLedger === null || payment.ledger > listing.cancelLedger))
  ) {
    await returnPayment(deps, payment, "bounce", "listing_not_active", listing.id);
    return true;
  }
  if (payment.closedAt.getTime() > intent.expiresAt.getTime()) {
    await returnPayment(deps, payment, "bounce", "intent_expired", listing.id);
    return true;
  }
  if (payment.source !== intent.buyer) {
    await returnPayment(deps, payment, "bounce", "payer_is_not_buyer", listing.id);
    return true;
  }
  if (payment.amount < listing.price) {
    await returnPayment(deps, payment, "refund", "below_price", listing.id);
    return true;
  }
  // From here the verdict depends on the registry as of the payment: wait for a caught-up view.
  const { processed } = deps;
  if (processed === null || processed < payment.ledger) return false;
  const funded = await db
    .select({ id: marketPayments.id })
    .from(marketPayments)
    .where(and(eq(marketPayments.listingId, listing.id), eq(marketPayments.state, "funded")));
  if (funded.length > 0) {
    await returnPayment(deps, payment, "bounce", "listing_has_deposit", listing.id);
    return true;
  }
  const proposal = await proposalBefore(
    db,
    deps.registryId,
    listing.node,
    payment.toid,
    payment.closedAt,
    listing.seller,
  );
  if (proposal === null || proposal.to !== intent.buyer) {
    await returnPayment(deps, payment, "bounce", "no_live_proposal", listing.id);
    return true;
  }
  const now = deps.now();
  await db.transaction(async (tx) => {
    const moved = await setPayment(tx, payment, "new", {
      state: "funded",
      verdict: "funded",
      decidedAt: now,
      listingId: listing.id,
      intentId: intent.id,
      buyer: intent.buyer,
      held: listing.price,
      proposalExpires: proposal.expires,
    });
    if (!moved) return;
    const surplus = payment.amount - listing.price;
    await owe(
      tx,
      [{ paymentId: payment.id, purpose: "surplus", destination: payment.source, amount: surplus }],
      now,
    );
  });
  return true;
}

async function decideBond(deps: VerdictDeps, payment: Payment, listing: Listing): Promise<void> {
  if (listing.state !== "pending_bond" || payment.amount < listing.bond) {
    await returnPayment(
      deps,
      payment,
      "refund",
      listing.state === "pending_bond" ? "below_bond" : "bond_not_expected",
      listing.id,
    );
    return;
  }
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const moved = await setPayment(tx, payment, "new", {
      state: "bond",
      verdict: "bond",
      decidedAt: now,
      listingId: listing.id,
      held: listing.bond,
    });
    if (!moved) return;
    await tx
      .update(marketListings)
      .set({ state: "active", bondPayment: payment.id, listedAt: now })
      .where(and(eq(marketListings.id, listing.id), eq(marketListings.state, "pending_bond")));
    const surplus = payment.amount - listing.bond;
    await owe(
      tx,
      [{ paymentId: payment.id, purpose: "surplus", destination: payment.source, amount: surplus }],
      now,
    );
    // Last: it holds the outbox's lock until commit.
    await appendChanges(tx, [listedChange(listing, payment)]);
  });
}
