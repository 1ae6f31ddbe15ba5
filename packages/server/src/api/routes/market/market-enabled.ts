// docs/api.md "Marketplace": with the marketplace off, every marketplace route answers 409 market_disabled, before any input check.
import type { FastifyInstance } from "fastify";
import type { ChainClient } from "../../../chain/chain-client.ts";
import type { Config } from "../../../config/index.ts";
import type { Database } from "../../../db/types.ts";
import { ApiError } from "../../errors.ts";

export interface EnabledMarket {
  readonly escrowAccount: string;
  readonly feeBps: number;
  readonly bondBps: number;
  readonly bondMinXlm: number;
}

/** The marketplace's settings when it is on, else null. */
export function enabledMarket(config: Config): EnabledMarket | null {
  const m = config.market;
  if (!m.enabled || m.escrowAccount === null) return null;
  return { escrowAccount: m.escrowAccount, feeBps: m.feeBps, bondBps: m.bondBps, bondMinXlm: m.bondMinXlm };
}

export function refuseWhenDisabled(app: FastifyInstance, market: EnabledMarket | null): void {
  app.addHook("onRequest", async () => {
    if (market === null) throw new ApiError("market_disabled");
  });
}

/** What the public marketplace routes share. */
export interface MarketRouteOptions {
  readonly db: Database;
  readonly market: EnabledMarket | null;
  readonly now: () => Date;
  /** Live registry reads (a listing's current owner); undefined: no RPC (503 chain_unavailable). */
  readonly chainClient: ChainClient | undefined;
  /** The registry contract whose owner and `acc_tr` events decide whether a listing is still open. */
  readonly registryId: string | null;
}

export function marketRouteOptions(deps: {
  readonly db: Database;
  readonly config: Config;
  readonly now: () => Date;
  readonly chainClient: ChainClient | undefined;
}): MarketRouteOptions {
  return {
    db: deps.db,
    market: enabledMarket(deps.config),
    now: deps.now,
    chainClient: deps.chainClient,
    registryId: deps.config.chain.contracts.registry.id,
  };
}
