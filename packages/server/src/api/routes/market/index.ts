// The public marketplace routes (spec §4.4). Listing is done in the console (console-listings.ts).
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../../config/index.ts";
import type { Database } from "../../../db/types.ts";
import { historyRoutes } from "./history.ts";
import { intentRoutes } from "./intent.ts";
import { listingRoutes } from "./listings.ts";
import { type EnabledMarket, enabledMarket, refuseWhenDisabled } from "./market-enabled.ts";

export interface MarketRouteOptions {
  readonly db: Database;
  readonly market: EnabledMarket | null;
  readonly now: () => Date;
  readonly intentPerMinute: number;
}

export const marketRoutes: FastifyPluginAsyncZod<{ db: Database; config: Config; now: () => Date }> = async (
  app,
  { db, config, now },
) => {
  const market = enabledMarket(config);
  refuseWhenDisabled(app, market);
  const options: MarketRouteOptions = { db, market, now, intentPerMinute: config.rateLimit.intentPerMinute };
  await app.register(listingRoutes, options);
  await app.register(intentRoutes, options);
  await app.register(historyRoutes, options);
};
