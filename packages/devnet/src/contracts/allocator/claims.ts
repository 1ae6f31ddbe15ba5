// Claims and objections in storage, concluding a claim and settling its fee receipt.
import {
  applyBps,
  Claim,
  type ClaimState,
  type ContractEvent,
  claimFeeKey,
  encodeEvent,
  type FeeOutcome,
  type FeeQuote,
  namespaceNode,
  REFUND_BPS,
  Receipt,
  RegistryFns,
  u64,
} from "@namereg/protocol";
import { ContractError, type InvocationContext } from "../../host/contract.ts";
import { callFn, emitEvent, typed } from "../define.ts";
import { addLiabilities, credit, payOut } from "./money.ts";
import { E, K, LIVE_STATES, type Objection, Objections, ReceiptEpoch, registryOf } from "./storage.ts";

export function loadClaim(ctx: InvocationContext, id: bigint): Claim {
  return typed(ctx.storage).need(K.claim(id), Claim, E.CLAIM_STATE);
}

export function assertLive(claim: Claim): Claim {
  if (!LIVE_STATES.includes(claim.state)) throw new ContractError(E.CLAIM_STATE, `claim is ${claim.state}`);
  return claim;
}

export function liveClaim(ctx: InvocationContext, id: bigint): Claim {
  return assertLive(loadClaim(ctx, id));
}

export function saveClaim(ctx: InvocationContext, claim: Claim): void {
  typed(ctx.storage).set(K.claim(claim.id), Claim, claim);
}

export function objectionsOf(ctx: InvocationContext, id: bigint): Objection[] {
  return typed(ctx.storage).get(K.objections(id), Objections) ?? [];
}

export function saveObjections(ctx: InvocationContext, id: bigint, list: Objection[]): void {
  const s = typed(ctx.storage);
  if (list.length === 0) s.remove(K.objections(id));
  else s.set(K.objections(id), Objections, list);
}

/** Ends one objection: its live bond becomes a bond credit of `beneficiary` (liabilities unchanged in total). */
export function endObjection(
  ctx: InvocationContext,
  id: bigint,
  objection: Objection,
  reason: string,
  beneficiary: string,
): void {
  addLiabilities(ctx, -objection.bond);
  credit(ctx, "bond", beneficiary, objection.bond);
  emit(ctx, { type: "obj_end", id, data: { objector: objection.objector, reason } });
}

export function emit(ctx: InvocationContext, event: ContractEvent): void {
  emitEvent(ctx, encodeEvent(event));
}

// ---- fee settlement ----

export function heldReceipt(ctx: InvocationContext, claim: Claim): { receipt: Receipt; epoch: ReceiptEpoch } {
  const s = typed(ctx.storage);
  const receipt = s.get(K.receipt(claim.label), Receipt);
  const epoch = s.get(K.epoch(claim.label), ReceiptEpoch);
  if (receipt === undefined || epoch === undefined) throw new ContractError(E.CLAIM_STATE, "no receipt");
  if (epoch.claimId !== claim.id || receipt.outcome !== "Held") {
    throw new ContractError(E.CLAIM_STATE, "the claim's fee is no longer held");
  }
  return { receipt, epoch };
}

export function settle(ctx: InvocationContext, claim: Claim, outcome: FeeOutcome): void {
  const { receipt, epoch } = heldReceipt(ctx, claim);
  const refund = applyBps(receipt.amount, REFUND_BPS[outcome]);
  const treasury = receipt.amount - refund;
  addLiabilities(ctx, -receipt.amount);
  if (refund > 0n) {
    credit(ctx, "fee", receipt.claimant, refund);
    emit(ctx, { type: "fee_cred", data: { payee: receipt.claimant, amount: refund } });
  }
  payOut(ctx, epoch.recipient, treasury);
  const done: Receipt = { ...receipt, outcome, refundAmount: refund, treasuryAmount: treasury };
  typed(ctx.storage).set(K.receipt(claim.label), Receipt, done);
  emit(ctx, {
    type: "fee_done",
    key: claimFeeKey(claim.label),
    data: { label: claim.label, token: epoch.token, recipient: epoch.recipient, receipt: done },
  });
}

type ClaimEnd = "clm_awd" | "clm_wd" | "clm_rej" | "clm_exp";

/** Moves a live claim to a terminal state: objections end, then the claim event, then the fee settles. */
export function conclude(
  ctx: InvocationContext,
  claim: Claim,
  state: ClaimState,
  event: ClaimEnd,
  outcome: FeeOutcome,
  objectionReason: string,
): void {
  for (const o of objectionsOf(ctx, claim.id)) endObjection(ctx, claim.id, o, objectionReason, o.objector);
  saveClaim(ctx, { ...claim, state, awardedAt: state === "awarded" ? ctx.timestamp : claim.awardedAt });
  typed(ctx.storage).remove(K.objections(claim.id));
  emit(ctx, { type: event, id: claim.id, data: null });
  settle(ctx, claim, outcome);
}

export function sameQuote(a: FeeQuote, b: FeeQuote): boolean {
  return a.token === b.token && a.amount === b.amount && a.recipient === b.recipient;
}

export function isNamespaceAllocated(ctx: InvocationContext, label: string): boolean {
  return callFn(ctx, registryOf(ctx), RegistryFns.namespace, { node: namespaceNode(label) }) !== null;
}

export function hasHeldReceipt(ctx: InvocationContext, label: string): boolean {
  return typed(ctx.storage).get(K.receipt(label), Receipt)?.outcome === "Held";
}

export function nextClaimId(ctx: InvocationContext): bigint {
  const s = typed(ctx.storage);
  const id = s.get(K.nextId, u64) ?? 1n;
  s.set(K.nextId, u64, id + 1n);
  return id;
}
