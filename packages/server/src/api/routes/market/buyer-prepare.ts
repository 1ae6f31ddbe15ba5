// The buyer's two transactions, prepared for the buyer's own wallet without a session (docs/api.md "Marketplace",
// **Chosen**; docs/market.md "Buyer flow"): the deposit — one native payment of the price to the escrow with the
// intent's hash memo — and accept_transfer of the namespace on the registry. Both are submitted signed through
// POST /records/submit, which relays exactly these kinds. The service never signs and never builds a payment to
// any destination but the configured escrow, for any amount but the listing's price.
import { isAccountId, RegistryFns } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { NeedsOtherSigner } from "../../../chain/prepare.ts";
import { chainOf } from "../../common/console-context.ts";
import { PreparedPaymentAnswer, paymentAnswer } from "../../common/payment-answer.ts";
import { ApiError } from "../../errors.ts";
import { MARKET_ERRORS, PREPARE_ERRORS, routeRules } from "../../route-rules.ts";
import type { MarketRouteOptions } from "./market-enabled.ts";
import { currentIntentOf, listingById, openListingById } from "./queries.ts";

const Params = z.object({ id: z.string().max(64) });
const BuyerBody = z.strictObject({ account: z.string({ error: "is required" }).max(128) });

const DepositPrepared = PreparedPaymentAnswer.extend({
  intent: z.object({ id: z.string(), expiresAt: z.iso.datetime() }),
});

const AcceptPrepared = z.object({
  ok: z.literal(true),
  xdr: z.string(),
  signer: z.string(),
  namespace: z.string(),
  node: z.string(),
  registryId: z.string(),
  network: z.string(),
});

function requireBuyer(account: string): string {
  if (!isAccountId(account)) throw new ApiError("invalid_account", { detail: "account: a G… public key" });
  return account;
}

export const buyerPrepareRoutes: FastifyPluginAsyncZod<MarketRouteOptions> = async (
  app,
  { db, market, now, chainClient, registryId },
) => {
  app.post(
    "/v1/market/listings/:id/pay/prepare",
    {
      schema: {
        summary: "Buyer: prepare the deposit payment to the escrow, with the intent's hash memo",
        params: Params,
        body: BuyerBody,
        response: { 200: DepositPrepared },
      },
      config: routeRules("prepare", [
        ...MARKET_ERRORS,
        ...PREPARE_ERRORS,
        "listing_not_active",
        "intent_required",
      ]),
    },
    async (request) => {
      const account = requireBuyer(request.body.account);
      const listing = await openListingById(db.db, registryId, request.params.id);
      if (listing === undefined || market === null) {
        throw new ApiError("listing_not_active", { id: request.params.id });
      }
      const intent = await currentIntentOf(db.db, listing.id, account, now());
      if (intent === undefined) {
        throw new ApiError("intent_required", {
          id: listing.id,
          account,
          detail: `no unexpired intent of ${account} on this listing: POST /v1/market/listings/${listing.id}/intent first`,
        });
      }
      const prepared = await chainOf(chainClient).preparePayment({
        source: account,
        destination: market.escrowAccount,
        amount: listing.price,
        memoHash: intent.memo,
      });
      return {
        ...paymentAnswer(prepared),
        intent: { id: intent.id, expiresAt: intent.expiresAt.toISOString() },
      };
    },
  );

  app.post(
    "/v1/market/listings/:id/accept/prepare",
    {
      schema: {
        summary: "Buyer: prepare accepting the seller's transfer of the namespace (accept_transfer)",
        params: Params,
        body: BuyerBody,
        response: { 200: AcceptPrepared },
      },
      config: routeRules("prepare", [
        ...MARKET_ERRORS,
        ...PREPARE_ERRORS,
        "not_found",
        "listing_not_active",
        "no_transfer_proposal",
      ]),
    },
    async (request) => {
      const account = requireBuyer(request.body.account);
      const listing = await listingById(db.db, request.params.id);
      if (listing === undefined) throw new ApiError("not_found", { id: request.params.id });
      // A listing the seller cancelled stays acceptable while its proposal is live: the sale then stands.
      if (listing.state !== "active") throw new ApiError("listing_not_active", { id: listing.id });
      if (registryId === null) throw new ApiError("chain_unavailable");
      const chain = chainOf(chainClient);
      const noProposal = () =>
        new ApiError("no_transfer_proposal", {
          namespace: listing.namespace,
          account,
          detail: `the registry has no live proposal to transfer ${listing.namespace} to ${account}: the seller proposes first`,
        });
      let prepared: Awaited<ReturnType<typeof chain.prepare>>;
      try {
        prepared = await chain.prepare(account, registryId, RegistryFns.accept_transfer, {
          node: listing.node,
        });
      } catch (err) {
        // No live proposal (#13), or one to another account (it alone could authorise the acceptance).
        if (err instanceof NeedsOtherSigner) throw noProposal();
        if (err instanceof ApiError && err.extra.contractError === 13) throw noProposal();
        throw err;
      }
      return {
        ok: true as const,
        xdr: prepared.xdr,
        signer: prepared.source,
        namespace: listing.namespace,
        node: listing.node,
        registryId,
        network: prepared.networkPassphrase,
      };
    },
  );
};
