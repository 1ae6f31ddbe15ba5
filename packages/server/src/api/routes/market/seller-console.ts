// The seller's side in the owner console beyond listing and cancelling (docs/api.md "Marketplace", **Chosen**;
// docs/market.md "Seller flow"): the namespace's listings with the buyers who hold an intent, and the seller's
// three transactions, prepared for the owner's wallet — the bond payment to the escrow, propose_transfer of the
// namespace to a buyer with an intent, and cancel_transfer. Same session and owner checks as every console
// route; the signed transactions go to POST /console/tx/submit, which relays exactly these kinds for the
// session's namespace.
import { isAccountId, RegistryFns, stroopsToXlm } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { chainTime } from "../../../chain/registrar-reads.ts";
import type { Config } from "../../../config/index.ts";
import { noStore } from "../../cache.ts";
import { type ConsoleContext, chainOf, sessionOf } from "../../common/console-context.ts";
import { PreparedPaymentAnswer, paymentAnswer } from "../../common/payment-answer.ts";
import { ApiError } from "../../errors.ts";
import { CONSOLE_ERRORS, MARKET_ERRORS, PREPARE_ERRORS, routeRules } from "../../route-rules.ts";
import { enabledMarket, refuseWhenDisabled } from "./market-enabled.ts";
import {
  bondPayoutsOf,
  currentIntentOf,
  currentIntentsOf,
  type Listing,
  listingById,
  settledListingsOf,
  unsettledListingsOf,
} from "./queries.ts";
import { Params, ProposeBody, ProposePrepared, SellerListings, TransferPrepared } from "./seller-schemas.ts";

/** How many settled listings the seller sees: enough to follow a cancel or a sale to its payout. */
const SETTLED_SHOWN = 5;

export const sellerConsoleRoutes: FastifyPluginAsyncZod<ConsoleContext & { config: Config }> = async (
  app,
  { db, guard, chainClient, now, config },
) => {
  const market = enabledMarket(config);
  refuseWhenDisabled(app, market);
  const registryId = config.chain.contracts.registry.id;

  /** The listing and its namespace's owner session; 404 not_found, then the console guard's answers. */
  async function ownedListing(request: Parameters<typeof sessionOf>[0], id: string) {
    const listing = await listingById(db.db, id);
    if (listing === undefined) throw new ApiError("not_found", { id });
    const owner = await guard.requireNamespaceOwner(request, sessionOf(request), listing.namespace);
    return { listing, owner };
  }

  function registry(): string {
    if (registryId === null) throw new ApiError("chain_unavailable");
    return registryId;
  }

  async function liveProposal(node: string) {
    const proposal = await chainOf(chainClient).read(registry(), RegistryFns.transfer_proposal, { node });
    if (proposal === null) return null;
    return {
      to: proposal.to,
      expires: proposal.expires.toString(),
      expiresAt: new Date(Number(proposal.expires) * 1000).toISOString(),
    };
  }

  app.get(
    "/console/market/listings",
    {
      schema: {
        summary: "Owner: the namespace's unsettled listings and the buyers holding an intent",
        response: { 200: SellerListings },
      },
      config: routeRules("global", [...CONSOLE_ERRORS, ...MARKET_ERRORS]),
    },
    async (request, reply) => {
      noStore(reply);
      const owner = await guard.requireNamespaceOwner(request, sessionOf(request), undefined);
      if (market === null) throw new ApiError("market_disabled");
      const escrowAccount = market.escrowAccount;
      const at = now();
      const listings = await unsettledListingsOf(db.db, owner.namespace);
      const intents = await currentIntentsOf(
        db.db,
        listings.map((l) => l.id),
        at,
      );
      const settled = await settledListingsOf(db.db, owner.namespace, SETTLED_SHOWN);
      const payouts = await bondPayoutsOf(
        db.db,
        settled.flatMap((l) => (l.bondPayment === null ? [] : [l.bondPayment])),
      );
      // Live, as the buyer's acceptance reads it: the mirror may lag the seller's own transaction by a ledger.
      const proposals = await Promise.all(listings.map((l) => liveProposal(l.node)));
      return {
        namespace: owner.namespace,
        terms: { feeBps: market.feeBps, bondBps: market.bondBps, bondMinXlm: market.bondMinXlm },
        listings: listings.map((l, index) => ({
          id: l.id,
          node: l.node,
          priceXlm: stroopsToXlm(l.price),
          feeBps: l.feeBps,
          state: stateOf(l),
          bond: {
            to: escrowAccount,
            amountXlm: stroopsToXlm(l.bond),
            memoHash: l.bondMemo,
            posted: l.bondPayment !== null,
          },
          intents: intents
            .filter((i) => i.listingId === l.id)
            .map((i) => ({
              id: i.id,
              buyer: i.buyer,
              expiresAt: i.expiresAt.toISOString(),
              funded: i.funded,
            })),
          proposal: proposals[index] ?? null,
        })),
        settled: settled.map((l) => ({
          id: l.id,
          priceXlm: stroopsToXlm(l.price),
          state: l.state === "sold" ? ("sold" as const) : ("closed" as const),
          closedAt: l.closedAt?.toISOString() ?? null,
          bond: {
            amountXlm: stroopsToXlm(l.bond),
            payouts: payouts
              .filter((p) => p.paymentId === l.bondPayment)
              .map((p) => ({
                purpose: p.purpose === "slash" ? ("slash" as const) : ("bond_return" as const),
                to: p.destination,
                amountXlm: stroopsToXlm(p.amount),
                state: p.state,
                txHash: p.txHash,
              })),
          },
        })),
      };
    },
  );

  app.post(
    "/console/market/listings/:id/bond/prepare",
    {
      schema: {
        summary: "Owner: prepare the listing's bond payment to the escrow, with its hash memo",
        params: Params,
        response: { 200: PreparedPaymentAnswer },
      },
      config: routeRules("prepare", [
        ...CONSOLE_ERRORS,
        ...MARKET_ERRORS,
        ...PREPARE_ERRORS,
        "not_found",
        "listing_not_active",
      ]),
    },
    async (request, reply) => {
      noStore(reply);
      const { listing, owner } = await ownedListing(request, request.params.id);
      if (market === null) throw new ApiError("market_disabled");
      if (listing.state !== "pending_bond" || listing.seller !== owner.session.account) {
        throw new ApiError("listing_not_active", {
          id: listing.id,
          detail: "only a listing still waiting for its bond, by the account that listed it, takes a bond",
        });
      }
      const prepared = await chainOf(chainClient).preparePayment({
        source: owner.session.account,
        destination: market.escrowAccount,
        amount: listing.bond,
        memoHash: listing.bondMemo,
      });
      return paymentAnswer(prepared);
    },
  );

  app.post(
    "/console/market/listings/:id/propose/prepare",
    {
      schema: {
        summary:
          "Owner: prepare proposing the namespace's transfer to a buyer with an intent (propose_transfer)",
        params: Params,
        body: ProposeBody,
        response: { 200: ProposePrepared },
      },
      config: routeRules("prepare", [
        ...CONSOLE_ERRORS,
        ...MARKET_ERRORS,
        ...PREPARE_ERRORS,
        "not_found",
        "listing_not_active",
        "intent_required",
      ]),
    },
    async (request, reply) => {
      noStore(reply);
      const { buyer, expiresInSeconds } = request.body;
      const { listing, owner } = await ownedListing(request, request.params.id);
      if (!isAccountId(buyer)) throw new ApiError("invalid_account", { detail: "buyer: a G… public key" });
      if (listing.state !== "active" || listing.cancelRequestedAt !== null) {
        throw new ApiError("listing_not_active", { id: listing.id });
      }
      // Only to a buyer the escrow knows: a proposal to anyone else could be accepted with nothing paid for it.
      if ((await currentIntentOf(db.db, listing.id, buyer, now())) === undefined) {
        throw new ApiError("intent_required", {
          id: listing.id,
          account: buyer,
          detail: `${buyer} holds no unexpired intent on this listing`,
        });
      }
      const chain = chainOf(chainClient);
      const expires = (await chainTime(chain)) + BigInt(expiresInSeconds);
      const registryContract = registry();
      const prepared = await chain.prepare(
        owner.session.account,
        registryContract,
        RegistryFns.propose_transfer,
        {
          node: listing.node,
          to: buyer,
          expires,
        },
      );
      return {
        ...transferAnswer(listing, prepared, registryContract),
        buyer,
        expires: expires.toString(),
        expiresAt: new Date(Number(expires) * 1000).toISOString(),
      };
    },
  );

  app.post(
    "/console/market/listings/:id/cancel-proposal/prepare",
    {
      schema: {
        summary: "Owner: prepare withdrawing the namespace's transfer proposal (cancel_transfer)",
        params: Params,
        response: { 200: TransferPrepared },
      },
      config: routeRules("prepare", [
        ...CONSOLE_ERRORS,
        ...MARKET_ERRORS,
        ...PREPARE_ERRORS,
        "not_found",
        "no_transfer_proposal",
      ]),
    },
    async (request, reply) => {
      noStore(reply);
      const { listing, owner } = await ownedListing(request, request.params.id);
      const registryContract = registry();
      let prepared: Awaited<ReturnType<ReturnType<typeof chainOf>["prepare"]>>;
      try {
        prepared = await chainOf(chainClient).prepare(
          owner.session.account,
          registryContract,
          RegistryFns.cancel_transfer,
          { node: listing.node },
        );
      } catch (err) {
        if (err instanceof ApiError && err.extra.contractError === 13) {
          throw new ApiError("no_transfer_proposal", {
            namespace: listing.namespace,
            detail: `the registry holds no transfer proposal of ${listing.namespace}`,
          });
        }
        throw err;
      }
      return transferAnswer(listing, prepared, registryContract);
    },
  );
};

function stateOf(listing: Listing): "pending_bond" | "active" | "cancelling" {
  if (listing.state === "pending_bond") return "pending_bond";
  return listing.cancelRequestedAt === null ? "active" : "cancelling";
}

function transferAnswer(
  listing: Listing,
  prepared: { xdr: string; source: string; networkPassphrase: string },
  registryId: string,
) {
  return {
    ok: true as const,
    xdr: prepared.xdr,
    signer: prepared.source,
    namespace: listing.namespace,
    node: listing.node,
    registryId,
    network: prepared.networkPassphrase,
  };
}
