// The namespace claim fee read live from the allocator (docs/api.md "Claim fee"): the quote a claimant reviews, receipts
// and credits. A quote is only ever the chain's current policy in the native asset: an allocator without a policy,
// or with a policy in another token, yields a typed refusal, never a made-up or defaulted amount.
import { AllocatorFns, type FeeOutcome, type FeePolicy, REFUND_BPS, type Receipt } from "@namereg/protocol";
import { Asset } from "@stellar/stellar-sdk";
import type { ContractReads } from "./contract-reader.ts";

/** A contract reader that knows its network (ChainClient is one). */
export type NetworkReads = ContractReads & { readonly networkPassphrase: string };

export const CLAIM_FEE_DECIMALS = 7;

export type TerminalOutcome = Exclude<FeeOutcome, "Held">;

const TERMINAL_REFUND_BPS: Readonly<Record<TerminalOutcome, number>> = Object.freeze({
  Awarded: REFUND_BPS.Awarded,
  Rejected: REFUND_BPS.Rejected,
  Stuck: REFUND_BPS.Stuck,
  Withdrawn: REFUND_BPS.Withdrawn,
  Expired: REFUND_BPS.Expired,
});

export interface ClaimFeeQuote {
  readonly allocatorId: string;
  readonly token: string;
  /** Base units (stroops), as a decimal string. */
  readonly amount: string;
  readonly recipient: string;
  readonly decimals: typeof CLAIM_FEE_DECIMALS;
  readonly asset: "XLM";
  readonly network: string;
  /** Per terminal outcome; `Held` is not an outcome a refund is computed for. */
  readonly refundBps: Readonly<Record<TerminalOutcome, number>>;
  readonly rounding: "floor";
}

export type QuoteRefusal = "unconfigured" | "token_not_native";

/** Thrown when the chain's policy cannot be quoted; the API answers 503 claim_fee_unavailable with the reason. */
export class ClaimFeeUnavailableError extends Error {
  readonly reason: QuoteRefusal;
  constructor(reason: QuoteRefusal, message: string) {
    super(message);
    this.name = "ClaimFeeUnavailableError";
    this.reason = reason;
  }
}

/** The quote of a policy read from the chain; throws ClaimFeeUnavailableError for no policy or a foreign token. */
export function quoteOf(
  policy: FeePolicy | null,
  allocatorId: string,
  networkPassphrase: string,
): ClaimFeeQuote {
  if (policy === null) throw new ClaimFeeUnavailableError("unconfigured", "the allocator has no fee policy");
  const native = Asset.native().contractId(networkPassphrase);
  if (policy.token !== native) {
    throw new ClaimFeeUnavailableError(
      "token_not_native",
      `the fee policy's token ${policy.token} is not the native asset's contract ${native}`,
    );
  }
  return {
    allocatorId,
    token: policy.token,
    amount: policy.amount.toString(),
    recipient: policy.recipient,
    decimals: CLAIM_FEE_DECIMALS,
    asset: "XLM",
    network: networkPassphrase,
    refundBps: TERMINAL_REFUND_BPS,
    rounding: "floor",
  };
}

export async function readQuote(reader: NetworkReads, allocatorId: string): Promise<ClaimFeeQuote> {
  const policy = await reader.read(allocatorId, AllocatorFns.fee_policy, {});
  return quoteOf(policy, allocatorId, reader.networkPassphrase);
}

export interface ReceiptView {
  readonly claimant: string;
  readonly amount: string;
  readonly outcome: FeeOutcome;
  readonly refundAmount: string;
  readonly treasuryAmount: string;
}

export function receiptView(receipt: Receipt): ReceiptView {
  return {
    claimant: receipt.claimant,
    amount: receipt.amount.toString(),
    outcome: receipt.outcome,
    refundAmount: receipt.refundAmount.toString(),
    treasuryAmount: receipt.treasuryAmount.toString(),
  };
}

/** The label's current receipt (its latest epoch), or null: no claim ever paid, or a reserved namespace. */
export async function readReceipt(
  reader: ContractReads,
  allocatorId: string,
  label: string,
): Promise<ReceiptView | null> {
  const receipt = await reader.read(allocatorId, AllocatorFns.fee_receipt, { label });
  return receipt === null ? null : receiptView(receipt);
}

/** Claim-fee credit waiting for `payee` (refunds of terminal claims), in base units. */
export async function readCredit(reader: ContractReads, allocatorId: string, payee: string): Promise<bigint> {
  return reader.read(allocatorId, AllocatorFns.fee_credit, { payee });
}

/**
 * Objection-bond credit waiting for `payee`, in base units: a dismissed objection's bond credited to the claimant,
 * or a timed-out objection's bond returned to its objector. A separate credit from the claim fee's; the allocator
 * pays it out with `claim_bond_credit(payee)`.
 */
export async function readBondCredit(
  reader: ContractReads,
  allocatorId: string,
  payee: string,
): Promise<bigint> {
  return reader.read(allocatorId, AllocatorFns.bond_credit, { payee });
}
