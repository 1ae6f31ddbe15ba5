// The marketplace's money terms, in stroops: the seller's bond and the fee, and the hash memos that tie payments
// to listings and intents.
import { randomBytes } from "node:crypto";
import { applyBps, STROOPS_PER_XLM } from "@namereg/protocol";

export interface BondRule {
  readonly bondBps: number;
  readonly bondMinXlm: number;
}

/** max(price × bondBps / 10000, bondMinXlm XLM). */
export function bondFor(price: bigint, rule: BondRule): bigint {
  const share = applyBps(price, rule.bondBps);
  const floor = BigInt(rule.bondMinXlm) * STROOPS_PER_XLM;
  return share > floor ? share : floor;
}

/** A fresh 32-byte hash memo as 64 lower-case hex characters. */
export function newHashMemo(): string {
  return randomBytes(32).toString("hex");
}

/** Deposit intents live 24 hours (docs/market.md "Buyer flow"). */
export const INTENT_LIFETIME_MS = 24 * 3_600_000;
