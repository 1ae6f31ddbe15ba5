// The seller's side (console, namespace owner only, like the policy routes): list a namespace for sale and get
// the bond's payment instructions; cancel a listing. The escrow watcher does the money: a listing turns active
// when it sees the bond, and a cancel is settled by it (bond back, or with a funded deposit the deposit refunded
// and the bond slashed to that buyer) once the indexer has passed the ledger of the cancel.
import { randomUUID } from "node:crypto";
import { namespaceNode, stroopsToXlm, xlmToStroops } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../../../config/index.ts";
import { hasSqlState, UNIQUE_VIOLATION } from "../../../db/sql-state.ts";
import { bondFor, newHashMemo } from "../../../escrow/terms.ts";
import { noStore } from "../../cache.ts";
import { type ConsoleContext, chainOf, NamespaceField, sessionOf } from "../../common/console-context.ts";
import { ApiError } from "../../errors.ts";
import { CONSOLE_ERRORS, MARKET_ERRORS, routeRules } from "../../route-rules.ts";
import { enabledMarket, refuseWhenDisabled } from "./market-enabled.ts";
import { closePendingListing, insertListing, type Listing, listingById, requestCancel } from "./queries.ts";

const PriceXlm = z
  .string({ error: "is required" })
  .regex(/^\d{1,12}(\.\d{1,7})?$/, "must be a positive XLM amount with at most 7 decimals")
  .refine((v) => xlmToStroops(v) > 0n, "must be more than 0");

const CreateBody = z.strictObject({ namespace: NamespaceField, priceXlm: PriceXlm });

const ListingState = z.object({
  id: z.string(),
  namespace: z.string(),
  node: z.string(),
  priceXlm: z.string(),
  feeBps: z.number().int(),
  state: z.string(),
});

const CreateResponse = z.object({
  listing: ListingState,
  bond: z.object({
    to: z.string(),
    asset: z.literal("native"),
    amountXlm: z.string(),
    memoType: z.literal("hash"),
    memoHash: z.string(),
    note: z.string(),
  }),
});

type Row = Listing;

function view(row: Row) {
  return {
    id: row.id,
    namespace: row.namespace,
    node: row.node,
    priceXlm: stroopsToXlm(row.price),
    feeBps: row.feeBps,
    state: row.cancelRequestedAt !== null && row.state === "active" ? "cancelling" : row.state,
  };
}

export const consoleListingRoutes: FastifyPluginAsyncZod<ConsoleContext & { config: Config }> = async (
  app,
  { db, guard, chainClient, now, config },
) => {
  const market = enabledMarket(config);
  refuseWhenDisabled(app, market);

  app.post(
    "/console/market/listings",
    {
      schema: {
        summary: "Owner: list the namespace for sale",
        body: CreateBody,
        response: { 201: CreateResponse },
      },
      config: routeRules("global", [
        ...CONSOLE_ERRORS,
        ...MARKET_ERRORS,
        "listing_exists",
        "name_not_found",
        "invalid_node",
      ]),
    },
    async (request, reply) => {
      noStore(reply);
      const { namespace, priceXlm } = request.body;
      const owner = await guard.requireNamespaceOwner(request, sessionOf(request), namespace);
      if (market === null) throw new ApiError("market_disabled");
      const price = xlmToStroops(priceXlm);
      const bond = bondFor(price, market);
      const row: Parameters<typeof insertListing>[1] = {
        id: randomUUID(),
        namespace,
        node: namespaceNode(namespace),
        seller: owner.session.account,
        price,
        feeBps: market.feeBps,
        bond,
        bondMemo: newHashMemo(),
        state: "pending_bond",
        createdAt: now(),
      };
      try {
        await insertListing(db.db, row);
      } catch (err) {
        if (hasSqlState(err, UNIQUE_VIOLATION)) throw new ApiError("listing_exists", { namespace });
        throw err;
      }
      const stored = await listingById(db.db, row.id);
      if (stored === undefined) throw new Error("listing vanished after insert");
      const amountXlm = stroopsToXlm(bond);
      reply.code(201);
      return {
        listing: view(stored),
        bond: {
          to: market.escrowAccount,
          asset: "native" as const,
          amountXlm,
          memoType: "hash" as const,
          memoHash: row.bondMemo,
          note: `Pay ${amountXlm} XLM in one payment to the escrow with this hash memo; the listing turns active when the escrow sees it. The bond comes back after a sale or a cancel without a funded deposit, and is paid to a funded buyer if you back out.`,
        },
      };
    },
  );

  app.post(
    "/console/market/listings/:id/cancel",
    {
      schema: {
        summary: "Owner: withdraw a listing",
        params: z.object({ id: z.string().max(64) }),
        response: { 200: z.object({ ok: z.literal(true), listing: ListingState }) },
      },
      config: routeRules("global", [...CONSOLE_ERRORS, ...MARKET_ERRORS, "not_found", "listing_not_active"]),
    },
    async (request, reply) => {
      noStore(reply);
      const listing = await listingById(db.db, request.params.id);
      if (listing === undefined) throw new ApiError("not_found", { id: request.params.id });
      await guard.requireNamespaceOwner(request, sessionOf(request), listing.namespace);
      if (listing.state === "pending_bond") {
        await closePendingListing(db.db, listing.id, now());
      } else if (listing.state === "active" && listing.cancelRequestedAt === null) {
        // The watcher settles the cancel only once the indexer has processed this ledger, so an acceptance that
        // happened before the cancel is never mistaken for a backed-out sale.
        const head = await chainOf(chainClient).head();
        await requestCancel(db.db, listing.id, now(), head.sequence);
      } else if (listing.cancelRequestedAt === null) {
        throw new ApiError("listing_not_active", { id: listing.id });
      }
      const after = await listingById(db.db, listing.id);
      if (after === undefined) throw new Error("listing vanished");
      return { ok: true as const, listing: view(after) };
    },
  );
};
