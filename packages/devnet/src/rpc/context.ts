// What every JSON-RPC method handler gets.
import type { Chain } from "../chain/chain.ts";
import type { Faults } from "./faults.ts";
import type { RpcLimits } from "./limits.ts";
import type { Params } from "./params.ts";

export interface RpcContext {
  readonly chain: Chain;
  readonly friendbotUrl: string;
  readonly faults: () => Faults;
  readonly limits: RpcLimits;
}

export type MethodHandler = (params: Params, ctx: RpcContext) => unknown;

/** The latest/oldest ledger fields most responses carry. */
export function ledgerBounds(ctx: RpcContext) {
  const { latest, oldest } = ctx.chain;
  return { latest, oldest };
}
