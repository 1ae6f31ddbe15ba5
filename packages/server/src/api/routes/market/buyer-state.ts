// GET /v1/market/listings/{id}/buyers/{account} (docs/api.md "Marketplace", ours): where one buyer stands on one
// listing, so a buyer's page can say what happened and what comes next (docs/market.md "Buyer flow"): the intent a
// mint would return, the escrow's verdict on the buyer's latest deposit and the payouts it owes for it, whether the
// seller's transfer proposal to this account is live, and how the listing settled. Public, like the intent: every
// part of it is already readable on chain or in the escrow's own payouts to the buyer.
//
// The proposal is read live from the registry (`transfer_proposal`, what accept_transfer will check); when the chain
// cannot be read the answer falls back to the mirror's copy and says so (`source: "mirror"`), so a page polling it
// keeps showing the deposit's state through an RPC outage instead of an error.
import { isAccountId, RegistryFns, stroopsToXlm } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ChainUnavailableError, ContractCallError } from "../../../chain/contract-reader.ts";
import { noStore } from "../../cache.ts";
import { ApiError } from "../../errors.ts";
import { MARKET_ERRORS, routeRules } from "../../route-rules.ts";
import type { MarketRouteOptions } from "./market-enabled.ts";
import {
  indexedNamespace,
  type Listing,
  latestDepositOf,
  latestIntentOf,
  listingById,
  type Payment,
  type Payout,
  saleOfListing,
} from "./queries.ts";

const PayoutView = z.object({
  purpose: z
    .string()
    .describe("Why the escrow pays: `seller`, `refund`, `bounce`, `surplus`, `slash`, `bond_return`."),
  destination: z.string(),
  amountXlm: z.string(),
  state: z
    .enum(["pending", "signed", "paid", "parked", "released"])
    .describe("`pending`/`signed`: being sent; `paid`: on chain; `parked`/`released`: an operator decides."),
  txHash: z.string().nullable().describe("The payout's transaction, once signed."),
});

const DEPOSIT_STATES = ["none", "received", "funded", "paid_out", "returned", "parked"] as const;

const BuyerState = z.object({
  listing: z.object({
    id: z.string(),
    namespace: z.string(),
    node: z.string(),
    seller: z.string(),
    priceXlm: z.string(),
    feeBps: z.number().int(),
    state: z.enum(["pending_bond", "active", "cancelling", "sold", "closed"]),
  }),
  intent: z
    .object({ id: z.string(), expiresAt: z.iso.datetime(), memoHash: z.string(), expired: z.boolean() })
    .nullable()
    .describe("The buyer's intent a mint would return (or, expired, rotate); null before the first mint."),
  deposit: z.object({
    state: z
      .enum(DEPOSIT_STATES)
      .describe(
        "`none`: no payment on the buyer's memos; `received`: the escrow has it, no verdict yet; `funded`: held " +
          "for the sale; `paid_out`: the sale settled, paid to the seller; `returned`: sent back (see `verdict` and " +
          "`payouts`); `parked`: held for the operator.",
      ),
    amountXlm: z.string().nullable().describe("What the payment carried."),
    heldXlm: z.string().nullable().describe("What the escrow holds (or held) as the deposit."),
    verdict: z
      .string()
      .nullable()
      .describe("The escrow's reason, e.g. `funded`, `no_live_proposal`, `below_price`."),
    txHash: z.string().nullable(),
    receivedAt: z.iso.datetime().nullable(),
    payouts: z.array(PayoutView),
  }),
  proposal: z.object({
    state: z
      .enum(["none", "to_you", "to_other"])
      .describe(
        "The seller's live `propose_transfer` of the namespace: to this account, to another, or none.",
      ),
    to: z.string().nullable(),
    expiresAt: z.iso.datetime().nullable(),
    source: z.enum(["chain", "mirror"]).describe("`mirror` when the registry could not be read live."),
  }),
  settlement: z.object({
    state: z
      .enum(["open", "accepted", "sold_to_you", "sold_to_other", "closed"])
      .describe(
        "`accepted`: the namespace is this account's on the indexed registry and the escrow is settling; " +
          "`sold_to_you`: settled, the seller paid from the deposit; `closed`: no longer for sale.",
      ),
    owner: z.string().nullable().describe("The namespace's owner on the indexed registry."),
    sale: z
      .object({
        buyer: z.string(),
        priceXlm: z.string(),
        feeXlm: z.string(),
        settledAt: z.iso.datetime(),
        sellerPayout: PayoutView.nullable(),
      })
      .nullable(),
  }),
});

type BuyerStateBody = z.infer<typeof BuyerState>;

function payoutView(p: Payout): z.infer<typeof PayoutView> {
  return {
    purpose: p.purpose,
    destination: p.destination,
    amountXlm: stroopsToXlm(p.amount),
    state: p.state as z.infer<typeof PayoutView>["state"],
    txHash: p.txHash,
  };
}

/** The escrow's payment states (db/tables/market.ts) as a buyer reads them. */
function depositState(payment: Payment): (typeof DEPOSIT_STATES)[number] {
  switch (payment.state) {
    case "new":
      return "received";
    case "funded":
      return "funded";
    case "settled":
      return "paid_out";
    case "parked":
      return "parked";
    default:
      return "returned";
  }
}

function listingState(listing: Listing): BuyerStateBody["listing"]["state"] {
  if (listing.state === "active" && listing.cancelRequestedAt !== null) return "cancelling";
  return listing.state as BuyerStateBody["listing"]["state"];
}

const unixToIso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();

export const buyerStateRoutes: FastifyPluginAsyncZod<MarketRouteOptions> = async (
  app,
  { db, now, chainClient, registryId },
) => {
  app.get(
    "/v1/market/listings/:id/buyers/:account",
    {
      schema: {
        summary: "Buyer: this account's intent, deposit, proposal and settlement on a listing",
        params: z.object({ id: z.string().max(64), account: z.string().max(128) }),
        response: { 200: BuyerState },
      },
      config: routeRules("chain-read", [...MARKET_ERRORS, "invalid_request", "invalid_account", "not_found"]),
    },
    async (request, reply) => {
      noStore(reply);
      const { id, account } = request.params;
      if (!isAccountId(account))
        throw new ApiError("invalid_account", { detail: "account: a G… public key" });
      // The writer, as for the open listings: a buyer acts on this answer, a lagging replica must not mislead.
      const listing = await listingById(db.db, id);
      if (listing === undefined) throw new ApiError("not_found", { id });
      const [intent, deposit, sold, indexed] = await Promise.all([
        latestIntentOf(db.db, listing.id, account),
        latestDepositOf(db.db, listing.id, account),
        saleOfListing(db.db, listing.id),
        indexedNamespace(db.db, listing.node),
      ]);
      const at = now();
      const proposal = (await liveProposal(listing.node)) ?? {
        to: indexed?.transferTo ?? null,
        expires: indexed?.transferExpires ?? null,
        source: "mirror" as const,
      };
      const proposalLive =
        proposal.to !== null && (proposal.expires === null || Number(proposal.expires) * 1000 > at.getTime());
      const owner = indexed?.owner ?? null;
      const body: BuyerStateBody = {
        listing: {
          id: listing.id,
          namespace: listing.namespace,
          node: listing.node,
          seller: listing.seller,
          priceXlm: stroopsToXlm(listing.price),
          feeBps: listing.feeBps,
          state: listingState(listing),
        },
        intent:
          intent === undefined
            ? null
            : {
                id: intent.id,
                expiresAt: intent.expiresAt.toISOString(),
                memoHash: intent.memo,
                expired: intent.expiresAt.getTime() <= at.getTime(),
              },
        deposit:
          deposit === undefined
            ? {
                state: "none",
                amountXlm: null,
                heldXlm: null,
                verdict: null,
                txHash: null,
                receivedAt: null,
                payouts: [],
              }
            : {
                state: depositState(deposit.payment),
                amountXlm: stroopsToXlm(deposit.payment.amount),
                heldXlm: deposit.payment.held === null ? null : stroopsToXlm(deposit.payment.held),
                verdict: deposit.payment.verdict,
                txHash: deposit.payment.txHash,
                receivedAt: deposit.payment.closedAt.toISOString(),
                payouts: deposit.payouts.map(payoutView),
              },
        proposal: {
          state: !proposalLive ? "none" : proposal.to === account ? "to_you" : "to_other",
          to: proposalLive ? proposal.to : null,
          expiresAt: proposalLive && proposal.expires !== null ? unixToIso(proposal.expires) : null,
          source: proposal.source,
        },
        settlement: {
          state: settlementState(listing, sold?.sale.buyer ?? null, owner, account),
          owner,
          sale:
            sold === undefined
              ? null
              : {
                  buyer: sold.sale.buyer,
                  priceXlm: stroopsToXlm(sold.sale.price),
                  feeXlm: stroopsToXlm(sold.sale.fee),
                  settledAt: sold.sale.settledAt.toISOString(),
                  sellerPayout: sold.sellerPayout === undefined ? null : payoutView(sold.sellerPayout),
                },
        },
      };
      return body;
    },
  );

  /** The registry's live proposal for `node`; null when the chain cannot be read (the caller uses the mirror). */
  async function liveProposal(
    node: string,
  ): Promise<{ to: string | null; expires: bigint | null; source: "chain" } | null> {
    if (chainClient === undefined || registryId === null) return null;
    try {
      const live = await chainClient.read(registryId, RegistryFns.transfer_proposal, { node });
      return { to: live?.to ?? null, expires: live?.expires ?? null, source: "chain" };
    } catch (err) {
      if (err instanceof ChainUnavailableError || err instanceof ContractCallError) return null;
      throw err;
    }
  }
};

function settlementState(
  listing: Listing,
  saleBuyer: string | null,
  owner: string | null,
  account: string,
): BuyerStateBody["settlement"]["state"] {
  if (listing.state === "sold") return saleBuyer === account ? "sold_to_you" : "sold_to_other";
  if (listing.state === "closed") return "closed";
  // The escrow watcher settles on its next pass after the indexer: the mirror already knows the new owner.
  if (owner === account) return "accepted";
  if (owner !== null && owner !== listing.seller) return "closed";
  return "open";
}
