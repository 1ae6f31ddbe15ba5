// The allocator (docs/contracts.md "Allocator"): the claim queue for new namespaces, objections, awards and the claim
// fee. Every amount the allocator holds is in the one fee token, and every amount it owes (held fees, unpaid
// credits, live bonds) is counted in one running liabilities total, so `sweep` can pay out exactly the surplus
// without enumerating storage, which a Soroban contract cannot do.
import {
  AllocatorFns,
  address,
  applyBps,
  Claim,
  type ClaimState,
  CONTRACT_ERRORS,
  type CodecValue,
  type ContractEvent,
  claimFeeKey,
  encodeEvent,
  type FeeOutcome,
  FeePolicy,
  type FeeQuote,
  i128,
  label as labelCodec,
  namespaceNode,
  REFUND_BPS,
  Receipt,
  RegistryFns,
  struct,
  symbol,
  TokenFns,
  u64,
  vec,
} from "@namereg/protocol";
import { type Contract, ContractError, type InvocationContext } from "../host/contract.ts";
import { callFn, defineContract, emitEvent, key, typed } from "./define.ts";

const E = CONTRACT_ERRORS;

/** A live objection; `filed` (unix s) starts its own window, after which anyone may time it out. */
const Objection = struct("Objection", { objector: address, basis: vec(symbol), bond: i128, filed: u64 });
type Objection = CodecValue<typeof Objection>;
const Objections = vec(Objection);

/**
 * What a receipt's settlement needs beyond the Receipt struct: the claim that owns this epoch (so a claim whose
 * receipt was replaced can never settle its successor's fee) and where the fee goes, fixed when it was paid so a
 * later policy change does not redirect fees already held.
 */
const ReceiptEpoch = struct("ReceiptEpoch", { claimId: u64, token: address, recipient: address });
type ReceiptEpoch = CodecValue<typeof ReceiptEpoch>;

const K = {
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

type CreditKind = "fee" | "bond";
const creditKey = (kind: CreditKind, payee: string) =>
  kind === "fee" ? K.feeCredit(payee) : K.bondCredit(payee);

const LIVE_STATES: readonly ClaimState[] = ["announced", "objected"];

// ---- configuration ----

function adminOf(ctx: InvocationContext): string {
  return typed(ctx.storage).need(K.admin, address, E.NOT_AUTHORISED);
}

function requireAdmin(ctx: InvocationContext): void {
  ctx.requireAuth(adminOf(ctx));
}

function registryOf(ctx: InvocationContext): string {
  return typed(ctx.storage).need(K.registry, address, E.NOT_AUTHORISED);
}

function windowOf(ctx: InvocationContext): bigint {
  return typed(ctx.storage).get(K.window, u64) ?? 0n;
}

/** The fee token, fixed by the first policy; null until a policy was ever set (then nothing was ever paid in). */
function tokenOf(ctx: InvocationContext): string | null {
  return typed(ctx.storage).get(K.token, address) ?? null;
}

function needToken(ctx: InvocationContext): string {
  const token = tokenOf(ctx);
  if (token === null) throw new ContractError(E.FEE_CHANGED, "no fee token configured");
  return token;
}

// ---- money ----

function addLiabilities(ctx: InvocationContext, delta: bigint): void {
  const s = typed(ctx.storage);
  s.set(K.liabilities, i128, (s.get(K.liabilities, i128) ?? 0n) + delta);
}

function pullIn(ctx: InvocationContext, from: string, amount: bigint): void {
  if (amount === 0n) return;
  callFn(ctx, needToken(ctx), TokenFns.transfer, { from, to: ctx.contractId, amount });
}

function payOut(ctx: InvocationContext, to: string, amount: bigint): void {
  if (amount === 0n) return;
  callFn(ctx, needToken(ctx), TokenFns.transfer, { from: ctx.contractId, to, amount });
}

function creditOf(ctx: InvocationContext, kind: CreditKind, payee: string): bigint {
  return typed(ctx.storage).get(creditKey(kind, payee), i128) ?? 0n;
}

function credit(ctx: InvocationContext, kind: CreditKind, payee: string, amount: bigint): void {
  if (amount === 0n) return;
  typed(ctx.storage).set(creditKey(kind, payee), i128, creditOf(ctx, kind, payee) + amount);
  addLiabilities(ctx, amount);
}

/** Pays out a whole credit to its payee, whoever triggers it: the payee is the only possible recipient. */
function payCredit(ctx: InvocationContext, kind: CreditKind, payee: string): bigint {
  const amount = creditOf(ctx, kind, payee);
  if (amount <= 0n) throw new ContractError(E.NO_CREDIT);
  typed(ctx.storage).remove(creditKey(kind, payee));
  addLiabilities(ctx, -amount);
  payOut(ctx, payee, amount);
  return amount;
}

// ---- claims and objections ----

function loadClaim(ctx: InvocationContext, id: bigint): Claim {
  return typed(ctx.storage).need(K.claim(id), Claim, E.CLAIM_STATE);
}

function assertLive(claim: Claim): Claim {
  if (!LIVE_STATES.includes(claim.state)) throw new ContractError(E.CLAIM_STATE, `claim is ${claim.state}`);
  return claim;
}

function liveClaim(ctx: InvocationContext, id: bigint): Claim {
  return assertLive(loadClaim(ctx, id));
}

function saveClaim(ctx: InvocationContext, claim: Claim): void {
  typed(ctx.storage).set(K.claim(claim.id), Claim, claim);
}

function objectionsOf(ctx: InvocationContext, id: bigint): Objection[] {
  return typed(ctx.storage).get(K.objections(id), Objections) ?? [];
}

function saveObjections(ctx: InvocationContext, id: bigint, list: Objection[]): void {
  const s = typed(ctx.storage);
  if (list.length === 0) s.remove(K.objections(id));
  else s.set(K.objections(id), Objections, list);
}

/** Ends one objection: its live bond becomes a bond credit of `beneficiary` (liabilities unchanged in total). */
function endObjection(
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

function emit(ctx: InvocationContext, event: ContractEvent): void {
  emitEvent(ctx, encodeEvent(event));
}

// ---- fee settlement ----

function heldReceipt(ctx: InvocationContext, claim: Claim): { receipt: Receipt; epoch: ReceiptEpoch } {
  const s = typed(ctx.storage);
  const receipt = s.get(K.receipt(claim.label), Receipt);
  const epoch = s.get(K.epoch(claim.label), ReceiptEpoch);
  if (receipt === undefined || epoch === undefined) throw new ContractError(E.CLAIM_STATE, "no receipt");
  if (epoch.claimId !== claim.id || receipt.outcome !== "Held") {
    throw new ContractError(E.CLAIM_STATE, "the claim's fee is no longer held");
  }
  return { receipt, epoch };
}

function settle(ctx: InvocationContext, claim: Claim, outcome: FeeOutcome): void {
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
function conclude(
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

function sameQuote(a: FeeQuote, b: FeeQuote): boolean {
  return a.token === b.token && a.amount === b.amount && a.recipient === b.recipient;
}

function isNamespaceAllocated(ctx: InvocationContext, label: string): boolean {
  return callFn(ctx, registryOf(ctx), RegistryFns.namespace, { node: namespaceNode(label) }) !== null;
}

function hasHeldReceipt(ctx: InvocationContext, label: string): boolean {
  return typed(ctx.storage).get(K.receipt(label), Receipt)?.outcome === "Held";
}

function nextClaimId(ctx: InvocationContext): bigint {
  const s = typed(ctx.storage);
  const id = s.get(K.nextId, u64) ?? 1n;
  s.set(K.nextId, u64, id + 1n);
  return id;
}

// ---- handlers ----

export const allocatorContract: Contract = defineContract("allocator", AllocatorFns, {
  __constructor(ctx, { admin, registry, windowSeconds, graceSeconds }) {
    const s = typed(ctx.storage);
    s.set(K.admin, address, admin);
    s.set(K.registry, address, registry);
    s.set(K.window, u64, windowSeconds);
    s.set(K.grace, u64, graceSeconds);
    s.set(K.nextId, u64, 1n);
    s.set(K.liabilities, i128, 0n);
    return null;
  },

  set_fee_policy(ctx, policy) {
    requireAdmin(ctx);
    if (policy.amount <= 0n) throw new ContractError(E.FEE_CHANGED, "fee amount must be positive");
    const token = tokenOf(ctx);
    // Credits and the liabilities total are kept in one token; switching it would strand them.
    if (token !== null && token !== policy.token)
      throw new ContractError(E.FEE_CHANGED, "fee token is fixed");
    const s = typed(ctx.storage);
    s.set(K.token, address, policy.token);
    s.set(K.policy, FeePolicy, policy);
    emit(ctx, { type: "fee_cfg", data: policy });
    return null;
  },

  fee_policy(ctx) {
    return typed(ctx.storage).get(K.policy, FeePolicy) ?? null;
  },

  announce(ctx, { claimant, label, basis, evidence, fee }) {
    ctx.requireAuth(claimant);
    const policy = typed(ctx.storage).get(K.policy, FeePolicy);
    if (policy === undefined || !sameQuote(fee, policy)) throw new ContractError(E.FEE_CHANGED);
    if (isNamespaceAllocated(ctx, label)) throw new ContractError(E.NAME_TAKEN, "namespace allocated");
    if (hasHeldReceipt(ctx, label)) throw new ContractError(E.NAME_TAKEN, "a claim for the label is live");
    pullIn(ctx, claimant, policy.amount);
    addLiabilities(ctx, policy.amount);
    const id = nextClaimId(ctx);
    const claim: Claim = {
      id,
      label,
      claimant,
      basis,
      evidence,
      state: "announced",
      announcedLedger: BigInt(ctx.ledgerSequence),
      deadline: ctx.timestamp + windowOf(ctx),
      response: null,
      awardedAt: null,
    };
    saveClaim(ctx, claim);
    const s = typed(ctx.storage);
    // Overwrites a terminal receipt: a new epoch; the archive keeps the old one's events (docs/contracts.md "Rules the indexer relies on").
    s.set(K.receipt(label), Receipt, {
      claimant,
      amount: policy.amount,
      outcome: "Held",
      refundAmount: 0n,
      treasuryAmount: 0n,
    });
    s.set(K.epoch(label), ReceiptEpoch, { claimId: id, token: policy.token, recipient: policy.recipient });
    emit(ctx, { type: "clm_ann", id, data: claim });
    emit(ctx, {
      type: "fee_paid",
      key: claimFeeKey(label),
      data: { label, claimant, token: policy.token, amount: policy.amount },
    });
    return id;
  },

  object(ctx, { objector, id, basis, bond }) {
    ctx.requireAuth(objector);
    const claim = liveClaim(ctx, id);
    if (ctx.timestamp >= claim.deadline) throw new ContractError(E.WINDOW_NOT_ELAPSED, "claim window closed");
    // No contract error fits a malformed amount; trap as the native token does for negative amounts.
    if (bond < 0n) throw new Error("allocator: negative bond");
    const list = objectionsOf(ctx, id);
    if (list.some((o) => o.objector === objector)) throw new ContractError(E.CLAIM_STATE, "already objected");
    pullIn(ctx, objector, bond);
    addLiabilities(ctx, bond);
    saveObjections(ctx, id, [...list, { objector, basis, bond, filed: ctx.timestamp }]);
    saveClaim(ctx, { ...claim, state: "objected" });
    emit(ctx, { type: "clm_obj", id, data: { objector, basis, bond } });
    return null;
  },

  dismiss_objection(ctx, { id, objector }) {
    const claim = loadClaim(ctx, id);
    const list = objectionsOf(ctx, id);
    const objection = list.find((o) => o.objector === objector);
    if (objection === undefined) throw new ContractError(E.CLAIM_STATE, "no live objection");
    // An objection the admin never ruled on must not lock the objector's bond forever: after its own window
    // anyone may end it and the bond goes back. A dismissal on the merits forfeits the bond to the claimant.
    const timedOut = ctx.timestamp >= objection.filed + windowOf(ctx);
    if (!timedOut) requireAdmin(ctx);
    const rest = list.filter((o) => o !== objection);
    saveObjections(ctx, id, rest);
    if (rest.length === 0 && claim.state === "objected") saveClaim(ctx, { ...claim, state: "announced" });
    endObjection(
      ctx,
      id,
      objection,
      timedOut ? "timeout" : "dismissed",
      timedOut ? objector : claim.claimant,
    );
    return null;
  },

  respond(ctx, { id, response }) {
    const claim = loadClaim(ctx, id);
    ctx.requireAuth(claim.claimant);
    assertLive(claim);
    saveClaim(ctx, { ...claim, response });
    emit(ctx, { type: "clm_resp", id, data: { response } });
    return null;
  },

  award(ctx, { id }) {
    const claim = liveClaim(ctx, id);
    const unopposed = ctx.timestamp >= claim.deadline && objectionsOf(ctx, id).length === 0;
    if (!unopposed) requireAdmin(ctx);
    // Fail before touching the registry: a claim whose fee was refunded (Stuck) or replaced cannot be awarded.
    heldReceipt(ctx, claim);
    callFn(ctx, registryOf(ctx), RegistryFns.allocate, {
      label: claim.label,
      owner: claim.claimant,
      method: "allocate",
    });
    conclude(ctx, claim, "awarded", "clm_awd", "Awarded", "awarded");
    return null;
  },

  withdraw(ctx, { id }) {
    const claim = liveClaim(ctx, id);
    ctx.requireAuth(claim.claimant);
    conclude(ctx, claim, "withdrawn", "clm_wd", "Withdrawn", "closed");
    return null;
  },

  reject(ctx, { id }) {
    const claim = liveClaim(ctx, id);
    requireAdmin(ctx);
    conclude(ctx, claim, "rejected", "clm_rej", "Rejected", "closed");
    return null;
  },

  expire(ctx, { id }) {
    const claim = liveClaim(ctx, id);
    const grace = typed(ctx.storage).get(K.grace, u64) ?? 0n;
    if (ctx.timestamp < claim.deadline + grace) throw new ContractError(E.WINDOW_NOT_ELAPSED);
    conclude(ctx, claim, "expired", "clm_exp", "Expired", "closed");
    return null;
  },

  mark_stuck(ctx, { id }) {
    requireAdmin(ctx);
    const claim = loadClaim(ctx, id);
    // Stuck is a fee outcome, not a claim state (CLAIM_STATES has none): the fee is refunded in full, the claim
    // record keeps its state, and since its receipt is no longer Held it can never settle again, so it can no
    // longer be awarded or closed while a new claim for the label may start a new receipt epoch.
    settle(ctx, claim, "Stuck");
    return null;
  },

  claim(ctx, { id }) {
    return typed(ctx.storage).get(K.claim(id), Claim) ?? null;
  },

  fee_receipt(ctx, { label }) {
    return typed(ctx.storage).get(K.receipt(label), Receipt) ?? null;
  },

  fee_credit(ctx, { payee }) {
    return creditOf(ctx, "fee", payee);
  },

  claim_fee_credit(ctx, { payee }) {
    const amount = payCredit(ctx, "fee", payee);
    emit(ctx, { type: "fee_pull", data: { payee, amount } });
    return amount;
  },

  touch_fee_credit() {
    // On a real network this extends the credit entry's TTL; the devnet's storage never expires.
    return null;
  },

  bond_credit(ctx, { payee }) {
    return creditOf(ctx, "bond", payee);
  },

  claim_bond_credit(ctx, { payee }) {
    return payCredit(ctx, "bond", payee);
  },

  sweep(ctx, { recipient }) {
    requireAdmin(ctx);
    const token = tokenOf(ctx);
    if (token === null) return 0n;
    const balance = callFn(ctx, token, TokenFns.balance, { id: ctx.contractId });
    const owed = typed(ctx.storage).get(K.liabilities, i128) ?? 0n;
    const surplus = balance - owed;
    if (surplus <= 0n) return 0n;
    payOut(ctx, recipient, surplus);
    emit(ctx, { type: "fee_sweep", data: { recipient, amount: surplus } });
    return surplus;
  },

  reserve(ctx, { label, owner }) {
    requireAdmin(ctx);
    // A reservation must not strand a paid, live claim whose award would then fail: reject it first (full refund).
    if (hasHeldReceipt(ctx, label)) throw new ContractError(E.NAME_TAKEN, "a claim for the label is live");
    callFn(ctx, registryOf(ctx), RegistryFns.allocate, { label, owner, method: "reserved" });
    return null;
  },
});
