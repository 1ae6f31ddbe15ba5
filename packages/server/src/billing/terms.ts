// The arithmetic of billing (docs/billing.md): what one payment buys and whether it can be applied with certainty.
// Pure functions, so the watcher, the operator commands and the tests share one rule.
import type { AccountPayment } from "../chain/account-payments.ts";

export const PERIOD_DAYS = 30;
export const PERIOD_MS = PERIOD_DAYS * 24 * 60 * 60 * 1000;

/** Why a payment was not applied: each needs an operator (apply to a namespace, or resolve by hand). */
export const QUARANTINE_REASONS = {
  no_memo: "the payment carries no memo, so it names no namespace",
  memo_not_hash: "the memo is not a MEMO_HASH of a namespace node",
  unknown_namespace: "the memo hash is not the node of any namespace the mirror knows",
  not_native: "the payment is not in XLM",
  below_price: "the amount is less than the price of one period",
  remainder: "the amount is not a whole number of periods",
  token_transfer: "a token contract transfer, not a payment operation",
  path_payment: "a path payment, not a payment operation",
  account_merge: "an account merged into the billing account, not a payment operation",
} as const;

export type QuarantineReason = keyof typeof QUARANTINE_REASONS;

export type PaymentVerdict =
  | { readonly kind: "apply"; readonly node: string; readonly periods: number }
  | { readonly kind: "quarantine"; readonly reason: QuarantineReason };

/**
 * What the watcher may do with a payment on its own. The node is only checked for form here; whether a namespace
 * has it is the caller's lookup (`unknown_namespace`).
 */
export function judgePayment(
  payment: Pick<AccountPayment, "asset" | "amount" | "memo"> & { readonly memoType: string },
  pricePerPeriod: bigint,
): PaymentVerdict {
  if (payment.memoType === "none" || payment.memo === null) return quarantine("no_memo");
  if (payment.memoType !== "hash" || !/^[0-9a-f]{64}$/.test(payment.memo)) return quarantine("memo_not_hash");
  if (payment.asset !== "native") return quarantine("not_native");
  if (payment.amount < pricePerPeriod) return quarantine("below_price");
  if (payment.amount % pricePerPeriod !== 0n) return quarantine("remainder");
  return { kind: "apply", node: payment.memo, periods: Number(payment.amount / pricePerPeriod) };
}

function quarantine(reason: QuarantineReason): PaymentVerdict {
  return { kind: "quarantine", reason };
}

/** Paid-until after `periods` more periods bought at `at`: a renewal extends the paid time, a lapse restarts it. */
export function extendPaidUntil(paidUntil: Date | null, at: Date, periods: number): Date {
  const from = paidUntil !== null && paidUntil.getTime() > at.getTime() ? paidUntil : at;
  return new Date(from.getTime() + periods * PERIOD_MS);
}

export type SubscriptionState = "active" | "lapsed" | "suspended";

/** `suspended` by the operator wins; otherwise active exactly while paid through now. Never paid is lapsed. */
export function subscriptionState(
  row: { readonly status: string; readonly activeUntil: Date | null } | undefined,
  now: Date,
): SubscriptionState {
  if (row?.status === "suspended") return "suspended";
  if (row?.activeUntil != null && row.activeUntil.getTime() > now.getTime()) return "active";
  return "lapsed";
}

/** Billing is enforced when enabled and its launch grace (if any) has ended; `graceUntil` is the first enforced instant. */
export function billingEnforced(
  billing: { readonly enabled: boolean; readonly graceUntil: string | null },
  now: Date,
): boolean {
  return billing.enabled && (billing.graceUntil === null || now.getTime() >= Date.parse(billing.graceUntil));
}
