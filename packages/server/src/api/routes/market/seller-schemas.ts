// The HTTP shapes of the seller's console routes (seller-console.ts): the listings view with its buyers, proposal
// and settled bonds, and the answers of the transfer prepares. docs/api.md "Marketplace".
import { z } from "zod";

/** A proposal lives a day unless the seller says otherwise: as long as a fresh intent. */
const DEFAULT_PROPOSAL_SECONDS = 86_400;
const MIN_PROPOSAL_SECONDS = 300;
/** 30 days: a proposal is an open offer of the namespace; the seller renews it rather than leaving it for months. */
const MAX_PROPOSAL_SECONDS = 30 * 86_400;

export const Params = z.object({ id: z.string().max(64) });

export const ProposeBody = z.strictObject({
  buyer: z.string({ error: "is required" }).max(128),
  expiresInSeconds: z
    .number()
    .int()
    .min(MIN_PROPOSAL_SECONDS)
    .max(MAX_PROPOSAL_SECONDS)
    .default(DEFAULT_PROPOSAL_SECONDS)
    .describe(
      "How long the proposal stays acceptable, from the latest ledger's close time (default one day).",
    ),
});

export const TransferPrepared = z.object({
  ok: z.literal(true),
  xdr: z.string(),
  signer: z.string(),
  namespace: z.string(),
  node: z.string(),
  registryId: z.string(),
  network: z.string(),
});

export const ProposePrepared = TransferPrepared.extend({
  buyer: z.string(),
  expires: z.string().describe("The proposal's `expires` argument: unix seconds as a decimal string."),
  expiresAt: z.iso.datetime(),
});

const Proposal = z
  .object({
    to: z.string(),
    expires: z.string().describe("Unix seconds as a decimal string."),
    expiresAt: z.iso.datetime(),
  })
  .nullable()
  .describe("The registry's live transfer proposal of the namespace, read from the chain; null when none.");

const BondPayout = z.object({
  purpose: z
    .enum(["bond_return", "slash"])
    .describe(
      "`bond_return`: back to the seller; `slash`: to the buyer whose funded deposit the seller backed out of.",
    ),
  to: z.string(),
  amountXlm: z.string(),
  state: z.string().describe("`pending`, `signed`, `paid`; `parked` or `released` when an operator decides."),
  txHash: z.string().nullable(),
});

export const SellerListings = z.object({
  namespace: z.string(),
  terms: z
    .object({
      feeBps: z
        .number()
        .int()
        .describe("The marketplace's fee on a sale, in basis points of the price (floor)."),
      bondBps: z.number().int(),
      bondMinXlm: z.number().int(),
    })
    .describe(
      "What a new listing would be held to: its bond is max(price × bondBps / 10000, bondMinXlm XLM).",
    ),
  listings: z.array(
    z.object({
      id: z.string(),
      node: z.string(),
      priceXlm: z.string(),
      feeBps: z.number().int(),
      state: z.enum(["pending_bond", "active", "cancelling"]),
      bond: z.object({
        to: z.string().describe("The escrow account the bond is paid to."),
        amountXlm: z.string(),
        memoHash: z.string(),
        posted: z.boolean(),
      }),
      intents: z.array(
        z.object({
          id: z.string(),
          buyer: z.string(),
          expiresAt: z.iso.datetime(),
          funded: z.boolean().describe("The escrow holds this buyer's deposit."),
        }),
      ),
      proposal: Proposal,
    }),
  ),
  settled: z
    .array(
      z.object({
        id: z.string(),
        priceXlm: z.string(),
        state: z.enum(["sold", "closed"]),
        closedAt: z.iso.datetime().nullable(),
        bond: z.object({ amountXlm: z.string(), payouts: z.array(BondPayout) }),
      }),
    )
    .describe("The namespace's latest settled listings (at most 5), most recently closed first."),
});
