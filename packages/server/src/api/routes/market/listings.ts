// GET /v1/market/listings (docs/api.md "Marketplace"): listings open to buyers, newest first, at most 100. Open is judged
// in the query from the indexer's mirror (open-listings.ts), so a sold listing leaves the list the moment its
// transfer is indexed, before the escrow watcher closes the row.
import { stroopsToXlm } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MARKET_ERRORS, routeRules } from "../../route-rules.ts";
import type { MarketRouteOptions } from "./market-enabled.ts";
import { openListings } from "./queries.ts";

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

export const listingRoutes: FastifyPluginAsyncZod<MarketRouteOptions> = async (
  app,
  { db, market, registryId },
) => {
  const listingsRoute = {
    schema: { summary: "Namespaces listed for sale", response: { 200: ListingsResponse } },
    config: routeRules("global", [...MARKET_ERRORS, "invalid_request"]),
  };
  app.get("/v1/market/listings", listingsRoute, async () => {
    // The writer, not a replica: buyers pay from this list, and a lagging replica would still show a sale that
    // the indexer has already written.
    const rows = await openListings(db.db, registryId, MAX_LISTINGS);
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
