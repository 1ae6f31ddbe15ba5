// The allocator (docs/contracts.md "Allocator"): the claim queue for new namespaces, objections, awards and the claim
// fee. Every amount the allocator holds is in the one fee token, and every amount it owes (held fees, unpaid
// credits, live bonds) is counted in one running liabilities total, so `sweep` can pay out exactly the surplus
// without enumerating storage, which a Soroban contract cannot do. Storage, money and claim helpers live in
// allocator/; this module holds the contract's handlers.
import {
  AllocatorFns,
  address,
  Claim,
  claimFeeKey,
  FeePolicy,
  i128,
  Receipt,
  RegistryFns,
  TokenFns,
  u64,
} from "@namereg/protocol";
import { type Contract, ContractError } from "../host/contract.ts";
import {
  assertLive,
  conclude,
  emit,
  endObjection,
  hasHeldReceipt,
  heldReceipt,
  isNamespaceAllocated,
  liveClaim,
  loadClaim,
  nextClaimId,
  objectionsOf,
  sameQuote,
  saveClaim,
  saveObjections,
  settle,
} from "./allocator/claims.ts";
import { addLiabilities, creditOf, payCredit, payOut, pullIn } from "./allocator/money.ts";
import { E, K, ReceiptEpoch, registryOf, requireAdmin, tokenOf, windowOf } from "./allocator/storage.ts";
import { callFn, defineContract, typed } from "./define.ts";

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
