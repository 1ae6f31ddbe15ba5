// The rules of docs/market.md "Buyer flow", applied to what the escrow has received. Each verdict is one database transaction that
// moves the payment (and listing) to its next state and records the obligations it creates, guarded by the state
// it expects, so a replay after a crash finds nothing left to do. Verdicts that depend on registry state wait
// until the indexer has processed the ledgers they depend on (registry-view.ts).

import { randomUUID } from "node:crypto";
import { applyBps } from "@namereg/protocol";
import { and, asc, eq, inArray } from "drizzle-orm";
import { marketIntents, marketListings, marketPayments, marketSales } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { processedLedger } from "../watchers/indexer-progress.ts";
import { type Obligation, owe } from "./obligations.ts";
import { proposalBefore, transferEvents } from "./registry-view.ts";
import { isWashSale } from "./wash.ts";

export interface VerdictDeps {
  readonly db: Db;
  readonly registryId: string;
  /** Close time of a ledger, in unix seconds (from the RPC). */
  readonly ledgerCloseTime: (ledger: number) => Promise<bigint>;
  readonly now: () => Date;
}

type Payment = typeof marketPayments.$inferSelect;
type Listing = typeof marketListings.$inferSelect;

/** The memo text an operator puts on a payment that tops up the escrow's own float (kept, not refunded). */
export const FLOAT_MEMO = "float";

async function setPayment(
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
  if (listing.state !== "active" || listing.cancelRequestedAt !== null) {
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
  const processed = await processedLedger(db);
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
  });
}

type FundedVerdict = "sale" | "slash" | "expired" | null;

/** What the registry (as far as the indexer has processed it) says about a funded deposit. */
async function fundedVerdict(deps: VerdictDeps, payment: Payment, listing: Listing, processed: number) {
  const buyer = payment.buyer;
  let expires = payment.proposalExpires;
  if (buyer === null || expires === null) throw new Error(`funded payment ${payment.id} lacks its buyer`);
  const later = (
    await transferEvents(deps.db, deps.registryId, listing.node, { afterId: payment.toid })
  ).filter((e) => e.ledger <= processed);
  // A proposal that lapses unaccepted refunds the deposit and the seller keeps the bond, unless the seller had
  // cancelled the listing first: then the seller backed out, and the bond is slashed to the buyer.
  const lapsed = () =>
    listing.cancelRequestedAt === null
      ? { verdict: "expired" as FundedVerdict, reason: "expired" }
      : { verdict: "slash" as FundedVerdict, reason: "listing_cancelled" };
  for (const event of later) {
    if (event.at !== null && event.at >= expires) return lapsed();
    if (event.type === "acc_tr") {
      return event.to === buyer
        ? { verdict: "sale" as FundedVerdict, reason: "accepted" }
        : { verdict: "slash" as FundedVerdict, reason: "sold_elsewhere" };
    }
    if (event.type === "canc_tr") return { verdict: "slash" as FundedVerdict, reason: "proposal_cancelled" };
    if (event.to !== buyer) return { verdict: "slash" as FundedVerdict, reason: "proposal_re_aimed" };
    expires = event.expires;
  }
  // A cancel in the console alone decides nothing while the proposal to the buyer is live on chain: the buyer
  // could still accept it, and must then not get both the namespace and the money back. The deposit is settled
  // by what the registry does next (the seller cancels or re-aims on chain: slash; the buyer accepts: sale; the
  // proposal lapses: slash, as the seller backed out).
  if ((await deps.ledgerCloseTime(processed)) >= expires) return lapsed();
  return { verdict: null as FundedVerdict, reason: null };
}

/** Settles funded deposits whose outcome the caught-up registry view now decides. */
export async function decideFundedDeposits(deps: VerdictDeps): Promise<number> {
  const { db } = deps;
  const processed = await processedLedger(db);
  if (processed === null) return 0;
  const funded = await db
    .select()
    .from(marketPayments)
    .where(eq(marketPayments.state, "funded"))
    .orderBy(asc(marketPayments.toid));
  let decided = 0;
  for (const payment of funded) {
    if (payment.listingId === null || payment.held === null || payment.buyer === null) continue;
    const [listing] = await db.select().from(marketListings).where(eq(marketListings.id, payment.listingId));
    if (listing === undefined) continue;
    const { verdict, reason } = await fundedVerdict(deps, payment, listing, processed);
    if (verdict === null) continue;
    await settle(deps, payment, listing, verdict, reason ?? verdict);
    decided++;
  }
  return decided;
}

async function bondPaymentOf(tx: Db, listing: Listing): Promise<Payment | null> {
  if (listing.bondPayment === null) return null;
  const [bond] = await tx.select().from(marketPayments).where(eq(marketPayments.id, listing.bondPayment));
  return bond ?? null;
}

async function settle(
  deps: VerdictDeps,
  payment: Payment,
  listing: Listing,
  verdict: "sale" | "slash" | "expired",
  reason: string,
): Promise<void> {
  const now = deps.now();
  const held = payment.held ?? 0n;
  const buyer = payment.buyer ?? payment.source;
  await deps.db.transaction(async (tx) => {
    const nextState = verdict === "sale" ? "settled" : "returned";
    if (!(await setPayment(tx, payment, "funded", { state: nextState, verdict: reason, decidedAt: now })))
      return;
    const owed: Obligation[] = [];
    if (verdict === "expired") {
      owed.push({ paymentId: payment.id, purpose: "refund", destination: payment.source, amount: held });
      await owe(tx, owed, now);
      return;
    }
    const bond = await bondPaymentOf(tx, listing);
    if (bond !== null && bond.state === "bond") {
      await setPayment(tx, bond, "bond", {
        state: "released",
        verdict: verdict === "sale" ? "sold" : reason,
      });
      owed.push(
        verdict === "sale"
          ? { paymentId: bond.id, purpose: "bond_return", destination: bond.source, amount: bond.held ?? 0n }
          : { paymentId: bond.id, purpose: "slash", destination: buyer, amount: bond.held ?? 0n },
      );
    }
    if (verdict === "sale") {
      const fee = applyBps(held, listing.feeBps);
      owed.push({
        paymentId: payment.id,
        purpose: "seller",
        destination: listing.seller,
        amount: held - fee,
      });
      const sale = { node: listing.node, seller: listing.seller, buyer, settledAt: now };
      await tx.insert(marketSales).values({
        id: randomUUID(),
        listingId: listing.id,
        namespace: listing.namespace,
        price: held,
        fee,
        ...sale,
        washFlagged: await isWashSale(tx, sale),
      });
    } else {
      owed.push({ paymentId: payment.id, purpose: "refund", destination: payment.source, amount: held });
    }
    await tx
      .update(marketListings)
      .set({ state: verdict === "sale" ? "sold" : "closed", closedAt: now })
      .where(eq(marketListings.id, listing.id));
    await owe(tx, owed, now);
  });
}

/**
 * Active listings without a funded deposit that must close: cancelled by the seller, or the namespace has been
 * accepted by someone else. The bond goes back to whoever posted it.
 */
export async function closeListings(deps: VerdictDeps): Promise<number> {
  const { db } = deps;
  const processed = await processedLedger(db);
  const listings = await db
    .select()
    .from(marketListings)
    .where(inArray(marketListings.state, ["active"]));
  let closed = 0;
  for (const listing of listings) {
    const funded = await db
      .select({ id: marketPayments.id })
      .from(marketPayments)
      .where(and(eq(marketPayments.listingId, listing.id), eq(marketPayments.state, "funded")));
    if (funded.length > 0) continue;
    let reason: string | null = listing.cancelRequestedAt === null ? null : "cancelled";
    if (reason === null && processed !== null) {
      const history = (await transferEvents(db, deps.registryId, listing.node, {})).filter(
        (e) => e.ledger <= processed && e.type === "acc_tr",
      );
      const last = history.at(-1);
      if (last !== undefined && last.type === "acc_tr" && last.to !== listing.seller)
        reason = "namespace_moved";
    }
    if (reason === null) continue;
    const now = deps.now();
    await db.transaction(async (tx) => {
      const done = await tx
        .update(marketListings)
        .set({ state: "closed", closedAt: now })
        .where(and(eq(marketListings.id, listing.id), eq(marketListings.state, "active")))
        .returning({ id: marketListings.id });
      if (done.length === 0) return;
      const bond = await bondPaymentOf(tx, listing);
      if (bond === null || bond.state !== "bond") return;
      await setPayment(tx, bond, "bond", { state: "released", verdict: reason });
      await owe(
        tx,
        [{ paymentId: bond.id, purpose: "bond_return", destination: bond.source, amount: bond.held ?? 0n }],
        now,
      );
    });
    closed++;
  }
  return closed;
}
