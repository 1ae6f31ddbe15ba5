// GET /v1/market/history/{node} (docs/api.md "Marketplace"): escrow-settled sales, newest first, at most 50, wash-flagged
// sales left out (docs/market.md). Every sale here was settled by the escrow, hence the badge `escrow`.
import { stroopsToXlm } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { MARKET_ERRORS, routeRules } from "../../route-rules.ts";
import type { MarketRouteOptions } from "./market-enabled.ts";
import { salesOf } from "./queries.ts";

export const MAX_SALES = 50;
export const SALE_BADGE = "escrow";

const Sale = z.object({
  namespace: z.string(),
  priceXlm: z.string(),
  seller: z.string(),
  buyer: z.string(),
  settledAt: z.iso.datetime(),
  badge: z.string(),
});

const HistoryResponse = z.object({ node: z.string(), sales: z.array(Sale) });

export const historyRoutes: FastifyPluginAsyncZod<MarketRouteOptions> = async (app, { db }) => {
  app.get(
    "/v1/market/history/:node",
    {
      schema: {
        summary: "A namespace's past sales",
        params: z.object({ node: z.string() }),
        response: { 200: HistoryResponse },
      },
      config: routeRules("global", [...MARKET_ERRORS, "invalid_node", "invalid_request"]),
    },
    async (request) => {
      const node = request.params.node.toLowerCase();
      if (!/^[0-9a-f]{64}$/.test(node))
        throw new ApiError("invalid_node", { detail: "node: 64 hex characters" });
      const rows = await salesOf(db.replica, node, MAX_SALES);
      return {
        node,
        sales: rows.map((s) => ({
          namespace: s.namespace,
          priceXlm: stroopsToXlm(s.price),
          seller: s.seller,
          buyer: s.buyer,
          settledAt: s.settledAt.toISOString(),
          badge: SALE_BADGE,
        })),
      };
    },
  );
};
