// Which signed payments the relays send (docs/api.md "Prepare and submit"): exactly the ones this service prepares
// — one native payment with a hash memo to the escrow (a buyer's deposit on its unexpired intent, a seller's bond
// on a listing still waiting for it) or to the billing account (whole periods for a namespace the mirror knows),
// from the account that intent or listing names and for the exact amount it asks. Anything else would only be
// bounced, refunded or quarantined by a watcher, or is no business of this service: it is refused before sending.
// Shared by the public relay (/records/submit) and the console's (/console/tx/submit).
import { namespaceNode, stroopsToXlm } from "@namereg/protocol";
import { and, eq } from "drizzle-orm";
import type { PaymentCall } from "../../chain/submit-policy.ts";
import type { Config } from "../../config/index.ts";
import { marketIntents, marketListings, namespaces } from "../../db/tables.ts";
import type { Database } from "../../db/types.ts";
import { ApiError } from "../errors.ts";

export interface PaymentRelayContext {
  readonly db: Database;
  readonly config: Pick<Config, "market" | "billing">;
  readonly now: () => Date;
}

/** What a relayed payment pays for. */
export type PaymentPurpose =
  | { readonly kind: "deposit"; readonly listingId: string; readonly intentId: string }
  | { readonly kind: "bond"; readonly listingId: string; readonly namespace: string }
  | { readonly kind: "billing"; readonly namespace: string };

/** How a relay words a refusal: the public relay's 400 transaction_not_allowed on `signedXdr`. */
export type Refusal = (detail: string) => ApiError;

const notAllowed: Refusal = (detail) =>
  new ApiError("transaction_not_allowed", { detail: `signedXdr: ${detail}` });

/** The purpose of `payment`, or the relay's refusal (`refuse`) saying why it is not one this service prepares. */
export async function judgeRelayedPayment(
  ctx: PaymentRelayContext,
  payment: PaymentCall,
  refuse: Refusal = notAllowed,
): Promise<PaymentPurpose> {
  if (payment.asset !== "native") {
    throw refuse(`pays ${payment.asset}; only native XLM payments are relayed`);
  }
  if (payment.memoHash === null) {
    throw refuse(
      `carries a ${payment.memoType} memo; the payments this service prepares carry the hash memo it handed out`,
    );
  }
  const { market, billing } = ctx.config;
  if (market.enabled && market.escrowAccount !== null && payment.destination === market.escrowAccount) {
    return escrowPurpose(ctx, payment, payment.memoHash, refuse);
  }
  if (billing.enabled && billing.account !== null && payment.destination === billing.account) {
    return billingPurpose(ctx, payment, payment.memoHash, billing.pricePerPeriod, refuse);
  }
  throw refuse(
    `pays ${payment.destination}, which is neither the marketplace escrow nor the billing account; this service relays no other payment`,
  );
}

async function escrowPurpose(
  ctx: PaymentRelayContext,
  payment: PaymentCall,
  memo: string,
  refuse: Refusal,
): Promise<PaymentPurpose> {
  const db = ctx.db.db;
  const [deposit] = await db
    .select({ intent: marketIntents, listing: marketListings })
    .from(marketIntents)
    .innerJoin(marketListings, eq(marketListings.id, marketIntents.listingId))
    .where(and(eq(marketIntents.memo, memo), eq(marketIntents.superseded, false)));
  if (deposit !== undefined) {
    const { intent, listing } = deposit;
    if (intent.expiresAt.getTime() <= ctx.now().getTime()) {
      throw refuse("pays on an expired intent; mint a fresh one (POST /v1/market/listings/{id}/intent)");
    }
    if (listing.state !== "active" || listing.cancelRequestedAt !== null) {
      throw refuse(`pays a deposit on listing ${listing.id}, which is not open to buyers`);
    }
    requirePayer(payment, intent.buyer, "the intent's buyer", refuse);
    requireAmount(payment, listing.price, "the listing's price", refuse);
    return { kind: "deposit", listingId: listing.id, intentId: intent.id };
  }
  const [listing] = await db.select().from(marketListings).where(eq(marketListings.bondMemo, memo));
  if (listing !== undefined) {
    if (listing.state !== "pending_bond") {
      throw refuse(`pays the bond of listing ${listing.id}, which is no longer waiting for its bond`);
    }
    requirePayer(payment, listing.seller, "the listing's seller", refuse);
    requireAmount(payment, listing.bond, "the listing's bond", refuse);
    return { kind: "bond", listingId: listing.id, namespace: listing.namespace };
  }
  throw refuse("the hash memo names no current intent and no listing bond of this escrow");
}

async function billingPurpose(
  ctx: PaymentRelayContext,
  payment: PaymentCall,
  memo: string,
  price: bigint,
  refuse: Refusal,
): Promise<PaymentPurpose> {
  const [row] = await ctx.db.db
    .select({ label: namespaces.label })
    .from(namespaces)
    .where(eq(namespaces.node, memo));
  // The node is re-derived from the label: a legacy row without its label cannot be billed by memo.
  if (row === undefined || namespaceNode(row.label) !== memo) {
    throw refuse("the hash memo is not the node of a namespace this service knows");
  }
  if (payment.amount < price || payment.amount % price !== 0n) {
    throw refuse(
      `pays ${stroopsToXlm(payment.amount)} XLM; billing takes whole periods of ${stroopsToXlm(price)} XLM`,
    );
  }
  return { kind: "billing", namespace: row.label };
}

function requirePayer(payment: PaymentCall, expected: string, who: string, refuse: Refusal): void {
  if (payment.source !== expected) throw refuse(`is paid by ${payment.source}, not by ${who} ${expected}`);
}

function requireAmount(payment: PaymentCall, expected: bigint, what: string, refuse: Refusal): void {
  if (payment.amount !== expected) {
    throw refuse(`pays ${stroopsToXlm(payment.amount)} XLM, not ${what} of ${stroopsToXlm(expected)} XLM`);
  }
}
