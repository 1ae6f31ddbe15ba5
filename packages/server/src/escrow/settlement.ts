// How a funded deposit ends (docs/market.md "Buyer flow"): a sale, a slash or a refund, decided by what the
// registry says as far as the indexer has processed it; and the listings that close without a funded deposit
// (cancelled, or the namespace moved elsewhere), whose bond goes back. Each settlement is one database
// transaction guarded by the state it expects (verdict-rows.ts), so a replay after a crash finds nothing to do.

import { randomUUID } from "node:crypto";
import { applyBps } from "@namereg/protocol";
import { and, asc, eq, inArray } from "drizzle-orm";
import { appendChanges } from "../db/outbox.ts";
import { marketListings, marketPayments, marketSales } from "../db/tables.ts";
import { soldChange } from "./changes.ts";
import { type Obligation, owe } from "./obligations.ts";
import { type TransferEvent, transferEvents } from "./registry-view.ts";
import { bondPaymentOf, type Listing, type Payment, setPayment, type VerdictDeps } from "./verdict-rows.ts";
import { isWashSale } from "./wash.ts";

type FundedVerdict = "sale" | "slash" | "expired" | null;
type Acceptance = Extract<TransferEvent, { type: "acc_tr" }>;

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
        ? { verdict: "sale" as FundedVerdict, reason: "accepted", acceptance: event }
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
  const { db, processed } = deps;
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
    const outcome = await fundedVerdict(deps, payment, listing, processed);
    if (outcome.verdict === null) continue;
    const acceptance = "acceptance" in outcome ? (outcome.acceptance ?? null) : null;
    await settle(deps, payment, listing, outcome.verdict, outcome.reason ?? outcome.verdict, acceptance);
    decided++;
  }
  return decided;
}

async function settle(
  deps: VerdictDeps,
  payment: Payment,
  listing: Listing,
  verdict: "sale" | "slash" | "expired",
  reason: string,
  acceptance: Acceptance | null,
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
    // Last: it holds the outbox's lock until commit.
    if (verdict === "sale" && acceptance !== null) {
      await appendChanges(tx, [soldChange(listing, buyer, acceptance)]);
    }
  });
}

/**
 * Active listings without a funded deposit that must close: cancelled by the seller, or the namespace has been
 * accepted by someone else. The bond goes back to whoever posted it.
 */
export async function closeListings(deps: VerdictDeps): Promise<number> {
  const { db, processed } = deps;
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
    // A cancel is settled once the pass's view has passed the ledger it was asked at: every payment made before
    // it has been judged by then (a deposit among them is funded, and settled as a funded deposit instead).
    const cancelSeen =
      listing.cancelRequestedAt !== null &&
      (listing.cancelLedger === null || (processed !== null && processed >= listing.cancelLedger));
    let reason: string | null = cancelSeen ? "cancelled" : null;
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
