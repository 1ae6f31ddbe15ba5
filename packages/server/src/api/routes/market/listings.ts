// GET /v1/market/listings (docs/api.md "Marketplace"): active listings, newest first, at most 100.
import { stroopsToXlm } from "@namereg/protocol";
import { desc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { marketListings } from "../../../db/tables.ts";
import { MARKET_ERRORS, routeRules } from "../../route-rules.ts";
import type { MarketRouteOptions } from "./market-enabled.ts";

export const MAX_LISTINGS = 100;

export const Listing = z.object({
  id: z.string(),
  namespace: z.string(),
  node: z.string(),
  priceXlm: z.string(),
  feeBps: z.number().int(),
  listedAt: z.iso.datetime(),
});

const ListingsResponse = z.object({ escrow: z.string(), listings: z.array(Listing) });

export const listingRoutes: FastifyPluginAsyncZod<MarketRouteOptions> = async (app, { db, market }) => {
  const listingsRoute = {
    schema: { response: { 200: ListingsResponse } },
    config: routeRules("global", [...MARKET_ERRORS, "invalid_request"]),
  };
  app.get("/v1/market/listings", listingsRoute, async () => {
    const rows = await db.replica
      .select()
      .from(marketListings)
      .where(eq(marketListings.state, "active"))
      .orderBy(desc(marketListings.listedAt), desc(marketListings.id))
      .limit(MAX_LISTINGS);
    return {
      escrow: market?.escrowAccount ?? "",
      listings: rows.map((l) => ({
        id: l.id,
        namespace: l.namespace,
        node: l.node,
        priceXlm: stroopsToXlm(l.price),
        feeBps: l.feeBps,
        listedAt: (l.listedAt ?? l.createdAt).toISOString(),
      })),
    };
  });
};
