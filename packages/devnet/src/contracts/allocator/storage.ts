// The allocator's storage layout and configuration reads.
import {
  address,
  type ClaimState,
  CONTRACT_ERRORS,
  type CodecValue,
  i128,
  label as labelCodec,
  struct,
  symbol,
  u64,
  vec,
} from "@namereg/protocol";
import { ContractError, type InvocationContext } from "../../host/contract.ts";
import { key, typed } from "../define.ts";

export const E = CONTRACT_ERRORS;

/** A live objection; `filed` (unix s) starts its own window, after which anyone may time it out. */
export const Objection = struct("Objection", {
  objector: address,
  basis: vec(symbol),
  bond: i128,
  filed: u64,
});
export type Objection = CodecValue<typeof Objection>;
export const Objections = vec(Objection);

/**
 * What a receipt's settlement needs beyond the Receipt struct: the claim that owns this epoch (so a claim whose
 * receipt was replaced can never settle its successor's fee) and where the fee goes, fixed when it was paid so a
 * later policy change does not redirect fees already held.
 */
export const ReceiptEpoch = struct("ReceiptEpoch", { claimId: u64, token: address, recipient: address });
export type ReceiptEpoch = CodecValue<typeof ReceiptEpoch>;

export const K = {
  admin: key("Admin"),
  registry: key("Registry"),
  window: key("Window"),
  grace: key("Grace"),
  nextId: key("NextId"),
  policy: key("Policy"),
  token: key("Token"),
  liabilities: key("Liab"),
  claim: (id: bigint) => key("Claim", u64.encode(id)),
  objections: (id: bigint) => key("Objs", u64.encode(id)),
  receipt: (label: string) => key("Receipt", labelCodec.encode(label)),
  epoch: (label: string) => key("RcptEpoch", labelCodec.encode(label)),
  feeCredit: (payee: string) => key("FeeCred", address.encode(payee)),
  bondCredit: (payee: string) => key("BondCred", address.encode(payee)),
};

export type CreditKind = "fee" | "bond";
export const creditKey = (kind: CreditKind, payee: string) =>
  kind === "fee" ? K.feeCredit(payee) : K.bondCredit(payee);

export const LIVE_STATES: readonly ClaimState[] = ["announced", "objected"];

// ---- configuration ----

function adminOf(ctx: InvocationContext): string {
  return typed(ctx.storage).need(K.admin, address, E.NOT_AUTHORISED);
}

export function requireAdmin(ctx: InvocationContext): void {
  ctx.requireAuth(adminOf(ctx));
}

export function registryOf(ctx: InvocationContext): string {
  return typed(ctx.storage).need(K.registry, address, E.NOT_AUTHORISED);
}

export function windowOf(ctx: InvocationContext): bigint {
  return typed(ctx.storage).get(K.window, u64) ?? 0n;
}

/** The fee token, fixed by the first policy; null until a policy was ever set (then nothing was ever paid in). */
export function tokenOf(ctx: InvocationContext): string | null {
  return typed(ctx.storage).get(K.token, address) ?? null;
}

export function needToken(ctx: InvocationContext): string {
  const token = tokenOf(ctx);
  if (token === null) throw new ContractError(E.FEE_CHANGED, "no fee token configured");
  return token;
}
