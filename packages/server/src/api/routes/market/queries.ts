// The marketplace routes' reads and writes of the mirror (listings.ts, history.ts, intent.ts, console-listings.ts,
// buyer-prepare.ts, seller-console.ts, buyer-state.ts);
// which listings are open to buyers is one condition of its own (open-listings.ts).
import { and, asc, desc, eq, gt, inArray, sql } from "drizzle-orm";
import {
  marketIntents,
  marketListings,
  marketPayments,
  marketPayouts,
  marketSales,
  namespaces,
} from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";
import { openListing } from "./open-listings.ts";

export type Listing = typeof marketListings.$inferSelect;
export type Intent = typeof marketIntents.$inferSelect;

/** Listings open to buyers, newest first. */
export function openListings(db: Db, registryId: string | null, limit: number): Promise<Listing[]> {
  return db
    .select()
    .from(marketListings)
    .where(openListing(registryId))
    .orderBy(desc(marketListings.listedAt), desc(marketListings.id))
    .limit(limit);
}

/** The listing `id` while it is open to buyers. */
export async function openListingById(
  db: Db,
  registryId: string | null,
  id: string,
): Promise<Listing | undefined> {
  const [listing] = await db
    .select()
    .from(marketListings)
    .where(and(eq(marketListings.id, id), openListing(registryId)));
  return listing;
}

/** A namespace's escrow-settled sales that are not wash-flagged, newest first. */
export function salesOf(replica: Db, node: string, limit: number) {
  return replica
    .select()
    .from(marketSales)
    .where(and(eq(marketSales.node, node), eq(marketSales.washFlagged, false)))
    .orderBy(desc(marketSales.settledAt), desc(marketSales.id))
    .limit(limit);
}

/**
 * The buyer's unexpired intent for the listing, or a fresh one (`fresh()`) in its place, in one transaction: an
 * expired intent is superseded first (kept, so a late payment on it is still recognised). `conflict` when another
 * request superseded it first; a concurrent insert surfaces as the partial unique index's violation.
 */
export function currentOrFreshIntent(
  db: Db,
  listingId: string,
  buyer: string,
  at: Date,
  fresh: () => Intent,
): Promise<Intent | "conflict"> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(marketIntents)
      .where(
        and(
          eq(marketIntents.listingId, listingId),
          eq(marketIntents.buyer, buyer),
          eq(marketIntents.superseded, false),
        ),
      );
    if (existing !== undefined && existing.expiresAt.getTime() > at.getTime()) return existing;
    if (existing !== undefined) {
      const rotated = await tx
        .update(marketIntents)
        .set({ superseded: true })
        .where(and(eq(marketIntents.id, existing.id), eq(marketIntents.superseded, false)))
        .returning({ id: marketIntents.id });
      if (rotated.length === 0) return "conflict";
    }
    const intent = fresh();
    await tx.insert(marketIntents).values(intent);
    return intent;
  });
}

export function insertListing(db: Db, row: typeof marketListings.$inferInsert) {
  return db.insert(marketListings).values(row);
}

export async function listingById(db: Db, id: string): Promise<Listing | undefined> {
  const [listing] = await db.select().from(marketListings).where(eq(marketListings.id, id));
  return listing;
}

/** Closes a listing whose bond never came (nothing to settle). */
export function closePendingListing(db: Db, id: string, at: Date) {
  return db
    .update(marketListings)
    .set({ state: "closed", closedAt: at })
    .where(and(eq(marketListings.id, id), eq(marketListings.state, "pending_bond")));
}

/** Asks the escrow watcher to settle a cancel once the indexer has passed `ledger`. */
export function requestCancel(db: Db, id: string, at: Date, ledger: number) {
  return db
    .update(marketListings)
    .set({ cancelRequestedAt: at, cancelLedger: ledger })
    .where(and(eq(marketListings.id, id), eq(marketListings.state, "active")));
}

/** The buyer's intent on the listing while it is current: not superseded and unexpired at `at`. */
export async function currentIntentOf(
  db: Db,
  listingId: string,
  buyer: string,
  at: Date,
): Promise<Intent | undefined> {
  const [intent] = await db
    .select()
    .from(marketIntents)
    .where(
      and(
        eq(marketIntents.listingId, listingId),
        eq(marketIntents.buyer, buyer),
        eq(marketIntents.superseded, false),
        gt(marketIntents.expiresAt, at),
      ),
    );
  return intent;
}

/** A namespace's listings still waiting for their bond or active, newest first. */
export function unsettledListingsOf(db: Db, namespace: string): Promise<Listing[]> {
  return db
    .select()
    .from(marketListings)
    .where(
      and(eq(marketListings.namespace, namespace), inArray(marketListings.state, ["pending_bond", "active"])),
    )
    .orderBy(desc(marketListings.createdAt), desc(marketListings.id));
}

/** The current intents of these listings (unexpired at `at`), each with whether the escrow holds its deposit. */
export async function currentIntentsOf(
  db: Db,
  listingIds: readonly string[],
  at: Date,
): Promise<(Intent & { funded: boolean })[]> {
  if (listingIds.length === 0) return [];
  const intents = await db
    .select()
    .from(marketIntents)
    .where(
      and(
        inArray(marketIntents.listingId, [...listingIds]),
        eq(marketIntents.superseded, false),
        gt(marketIntents.expiresAt, at),
      ),
    )
    .orderBy(desc(marketIntents.createdAt), desc(marketIntents.id));
  if (intents.length === 0) return [];
  const funded = await db
    .select({ intentId: marketPayments.intentId })
    .from(marketPayments)
    .where(
      and(
        inArray(
          marketPayments.intentId,
          intents.map((i) => i.id),
        ),
        eq(marketPayments.state, "funded"),
      ),
    );
  const held = new Set(funded.map((f) => f.intentId));
  return intents.map((intent) => ({ ...intent, funded: held.has(intent.id) }));
}

/** The buyer's intent on the listing that a new mint would return or rotate (not superseded; maybe expired). */
export async function latestIntentOf(db: Db, listingId: string, buyer: string): Promise<Intent | undefined> {
  const [intent] = await db
    .select()
    .from(marketIntents)
    .where(
      and(
        eq(marketIntents.listingId, listingId),
        eq(marketIntents.buyer, buyer),
        eq(marketIntents.superseded, false),
      ),
    );
  return intent;
}

export type Payment = typeof marketPayments.$inferSelect;
export type Payout = typeof marketPayouts.$inferSelect;

/**
 * The buyer's deposit on the listing, with the obligations it created, oldest first: the payment the escrow holds
 * (`funded`) or paid to the seller (`settled`) when there is one, else the newest payment it received on any of the
 * buyer's memos (superseded intents too: a late payment on an old memo is still the buyer's). A second payment
 * bounced while a deposit is held must not hide the held one: the buyer would read "returned" while the escrow
 * still holds their money for the sale (docs/api.md "Marketplace").
 */
export async function latestDepositOf(
  db: Db,
  listingId: string,
  buyer: string,
): Promise<{ payment: Payment; payouts: Payout[] } | undefined> {
  const memos = db
    .select({ memo: marketIntents.memo })
    .from(marketIntents)
    .where(and(eq(marketIntents.listingId, listingId), eq(marketIntents.buyer, buyer)));
  const [payment] = await db
    .select()
    .from(marketPayments)
    .where(and(eq(marketPayments.memoType, "hash"), inArray(marketPayments.memo, memos)))
    .orderBy(
      sql`case when ${marketPayments.state} in ('funded', 'settled') then 0 else 1 end`,
      desc(marketPayments.toid),
      desc(marketPayments.operationIndex),
    )
    .limit(1);
  if (payment === undefined) return undefined;
  const payouts = await db
    .select()
    .from(marketPayouts)
    .where(eq(marketPayouts.paymentId, payment.id))
    .orderBy(asc(marketPayouts.createdAt), asc(marketPayouts.id));
  return { payment, payouts };
}

/** The sale that settled the listing, with the seller's payout (its obligation) when the escrow wrote one. */
export async function saleOfListing(
  db: Db,
  listingId: string,
): Promise<{ sale: typeof marketSales.$inferSelect; sellerPayout: Payout | undefined } | undefined> {
  const [sale] = await db.select().from(marketSales).where(eq(marketSales.listingId, listingId)).limit(1);
  if (sale === undefined) return undefined;
  const [sellerPayout] = await db
    .select()
    .from(marketPayouts)
    .innerJoin(marketPayments, eq(marketPayments.id, marketPayouts.paymentId))
    .where(
      and(
        eq(marketPayments.listingId, listingId),
        eq(marketPayments.state, "settled"),
        eq(marketPayouts.purpose, "seller"),
      ),
    )
    .limit(1);
  return { sale, sellerPayout: sellerPayout?.market_payouts };
}

/** The indexed owner of a namespace and the transfer proposal the mirror last saw (null: none). */
export async function indexedNamespace(db: Db, node: string) {
  const [row] = await db
    .select({
      owner: namespaces.owner,
      transferTo: namespaces.transferTo,
      transferExpires: namespaces.transferExpires,
    })
    .from(namespaces)
    .where(eq(namespaces.node, node));
  return row;
}

/** A namespace's settled listings (`sold` or `closed`), most recently closed first. */
export function settledListingsOf(db: Db, namespace: string, limit: number): Promise<Listing[]> {
  return db
    .select()
    .from(marketListings)
    .where(and(eq(marketListings.namespace, namespace), inArray(marketListings.state, ["sold", "closed"])))
    .orderBy(desc(marketListings.closedAt), desc(marketListings.id))
    .limit(limit);
}

/** What the escrow owes or paid out of these bond payments: the bond's return to the seller or its slash. */
export function bondPayoutsOf(db: Db, bondPayments: readonly string[]) {
  if (bondPayments.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(marketPayouts)
    .where(
      and(
        inArray(marketPayouts.paymentId, [...bondPayments]),
        inArray(marketPayouts.purpose, ["bond_return", "slash"]),
      ),
    );
}
