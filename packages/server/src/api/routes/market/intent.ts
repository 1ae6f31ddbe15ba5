// POST /v1/market/listings/{id}/intent (docs/api.md "Marketplace"; docs/market.md "Buyer flow"): a buyer's deposit intent, no session needed.
// The same unexpired (listing, buyer) gets the same intent back; an expired one is rotated to a fresh memo (the
// old row is kept, superseded, so a late payment on it is still recognised and refunded). Two mints racing for
// one (listing, buyer) meet the partial unique index: the loser answers 409 intent_conflict (retry).
//
// Before minting, the listing must be open in the mirror (open-listings.ts) and its seller must still own the
// namespace on chain, read live: the mirror and the escrow watcher trail the chain by seconds, and an intent
// minted in that window names a seller who has already sold, so the buyer's payment would bounce while the
// namespace still moves (docs/market.md, "Listing lifecycle").
import { randomUUID } from "node:crypto";
import { isAccountId, RegistryFns, stroopsToXlm } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { liveRead } from "../../../chain/live-reads.ts";
import { hasSqlState, UNIQUE_VIOLATION } from "../../../db/sql-state.ts";
import { INTENT_LIFETIME_MS, newHashMemo } from "../../../escrow/terms.ts";
import { noStore } from "../../cache.ts";
import { ApiError } from "../../errors.ts";
import { MARKET_ERRORS, routeRules } from "../../route-rules.ts";
import type { MarketRouteOptions } from "./market-enabled.ts";
import { currentOrFreshIntent, type Intent, openListingById } from "./queries.ts";

const IntentResponse = z.object({
  intent: z.object({ id: z.string(), expiresAt: z.iso.datetime() }),
  pay: z.object({
    to: z.string(),
    asset: z.literal("native"),
    amountXlm: z.string(),
    memoType: z.literal("hash"),
    memoHash: z.string(),
    note: z.string(),
  }),
  settlement: z.object({ node: z.string(), seller: z.string(), steps: z.array(z.string()) }),
});

export const intentRoutes: FastifyPluginAsyncZod<MarketRouteOptions> = async (
  app,
  { db, market, now, chainClient, registryId },
) => {
  // INTENT_RATE_LIMIT_PER_MINUTE applies on top of the global limit (api/plugins/route-limits.ts).
  app.post(
    "/v1/market/listings/:id/intent",
    {
      schema: {
        summary: "Buyer: announce an intent to buy, with the payment to make",
        params: z.object({ id: z.string().max(64) }),
        body: z.strictObject({ account: z.string().max(128) }),
        response: { 200: IntentResponse },
      },
      config: {
        // The spec's code for a missing or malformed `account` (docs/api.md §4.4); other bad input stays
        // invalid_request.
        validationCode: (field: string) => (field === "account" ? "invalid_account" : undefined),
        ...routeRules("intent", [
          ...MARKET_ERRORS,
          "invalid_request",
          "invalid_account",
          "not_found",
          "listing_not_active",
          "intent_conflict",
          "chain_unavailable",
        ]),
      },
    },
    async (request, reply) => {
      noStore(reply);
      const { account } = request.body;
      if (!isAccountId(account))
        throw new ApiError("invalid_account", { detail: "account: a G… public key" });
      const listing = await openListingById(db.db, registryId, request.params.id);
      if (listing === undefined) throw new ApiError("listing_not_active", { id: request.params.id });
      if ((await currentOwner(listing.node)) !== listing.seller)
        throw new ApiError("listing_not_active", { id: listing.id });
      const intent = await currentIntent(listing.id, account);
      const escrow = market?.escrowAccount ?? "";
      const amountXlm = stroopsToXlm(listing.price);
      return {
        intent: { id: intent.id, expiresAt: intent.expiresAt.toISOString() },
        pay: {
          to: escrow,
          asset: "native" as const,
          amountXlm,
          memoType: "hash" as const,
          memoHash: intent.memo,
          // What docs/market.md "Buyer flow" says the escrow does: dust and XLM not sent by a payment are parked.
          note:
            `Pay exactly ${amountXlm} XLM with one payment operation from ${account} with this hash memo, only once the ` +
            "seller's transfer proposal to you is live. A payment that does not match is sent back to the sender; " +
            "XLM sent any other way (a token contract transfer, a path payment, an account merge) and anything that " +
            "would come back as less than 1 XLM are held until the marketplace operator returns them.",
        },
        settlement: {
          node: listing.node,
          seller: listing.seller,
          steps: [
            `1. The seller proposes the transfer of ${listing.namespace} to ${account} on the registry (propose_transfer).`,
            `2. You pay exactly ${amountXlm} XLM (native) in one payment to ${escrow} with hash memo ${intent.memo}, from ${account}.`,
            `3. You accept the transfer (accept_transfer); the escrow then pays the seller the price less ${listing.feeBps} bps.`,
          ],
        },
      };
    },
  );

  /** The namespace's owner on chain now (null: no such namespace); 503 chain_unavailable when it cannot be read. */
  async function currentOwner(node: string): Promise<string | null> {
    if (registryId === null) throw new ApiError("chain_unavailable");
    const record = await liveRead(
      chainClient,
      registryId,
      RegistryFns.namespace,
      { node },
      // A view that returns an Option fails only when the chain cannot tell: never guess an owner.
      { failure: "chain_unavailable", contractError: () => new ApiError("chain_unavailable") },
    );
    return record?.owner ?? null;
  }

  async function currentIntent(listingId: string, buyer: string): Promise<Intent> {
    const at = now();
    let intent: Intent | "conflict";
    try {
      intent = await currentOrFreshIntent(db.db, listingId, buyer, at, () => ({
        id: randomUUID(),
        listingId,
        buyer,
        memo: newHashMemo(),
        createdAt: at,
        expiresAt: new Date(at.getTime() + INTENT_LIFETIME_MS),
        superseded: false,
      }));
    } catch (err) {
      if (hasSqlState(err, UNIQUE_VIOLATION))
        throw new ApiError("intent_conflict", { detail: "a concurrent request won; retry" });
      throw err;
    }
    if (intent === "conflict") throw new ApiError("intent_conflict");
    return intent;
  }
};
