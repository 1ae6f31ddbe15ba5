// The wallet's check of a prepared payment (a marketplace deposit or bond, a billing period): a classic `payment`,
// not a contract call, so verifyPrepared's checks do not apply; these do. Nothing the service returns is signed
// until this has decoded the envelope and found exactly one native payment of the expected amount from the
// wallet's account to the expected destination with the expected hash memo, a fee under the bound and a near
// upper time bound. The expectation comes from what the user reviewed (the intent's or the console's payment
// instructions) and the wallet's own configuration, never from the prepare answer alone.
import { xlmToStroops } from "@namereg/protocol";
import { FeeBumpTransaction, type Transaction, TransactionBuilder } from "@stellar/stellar-sdk";
import { DEFAULT_MAX_VALIDITY_SECONDS, PreparedTransactionRejected } from "./verify-prepared.ts";

export interface PaymentExpectation {
  /** The network the wallet signs for. */
  readonly networkPassphrase: string;
  /** The paying account: the transaction's source and the operation's. */
  readonly source: string;
  /** Where the money must go (the escrow, the billing account). */
  readonly destination: string;
  /** Exactly this much native XLM, as a decimal string with at most 7 decimals ("500", "10.5"). */
  readonly amountXlm: string;
  /** The MEMO_HASH, 64 hex characters. */
  readonly memoHash: string;
  /** Highest fee accepted, in stroops. Default DEFAULT_MAX_PAYMENT_FEE_STROOPS. */
  readonly maxFeeStroops?: bigint | number | string;
  /** Longest the signed payment may stay submittable, in seconds from now. Default DEFAULT_MAX_VALIDITY_SECONDS. */
  readonly maxValiditySeconds?: number;
}

/**
 * 0.01 XLM: a hundred times the network's minimum base fee for the one operation, room for surge pricing, far
 * below anything a wallet should pay unasked on top of a payment.
 */
export const DEFAULT_MAX_PAYMENT_FEE_STROOPS = 100_000n;

export interface VerifiedPayment {
  readonly transaction: Transaction;
  readonly feeStroops: bigint;
}

function refuse(reason: ConstructorParameters<typeof PreparedTransactionRejected>[0], detail: string): never {
  throw new PreparedTransactionRejected(reason, detail);
}

/**
 * Decodes a prepared payment and checks it before anything is signed: the network (when `prepared.network` is
 * given), the source, exactly one `payment` operation acting for the source, native XLM, the destination, the
 * exact amount, the hash memo, the fee under the bound and an upper time bound within maxValiditySeconds. Throws
 * PreparedTransactionRejected; returns the decoded transaction.
 */
export function verifyPreparedPayment(
  prepared: string | { readonly xdr: string; readonly network?: string },
  expected: PaymentExpectation,
): VerifiedPayment {
  const envelope = typeof prepared === "string" ? prepared : prepared.xdr;
  const claimedNetwork = typeof prepared === "string" ? undefined : prepared.network;
  if (claimedNetwork !== undefined && claimedNetwork !== expected.networkPassphrase) {
    refuse(
      "network_mismatch",
      `prepared for "${claimedNetwork}", the wallet signs for "${expected.networkPassphrase}"`,
    );
  }
  let decoded: Transaction | FeeBumpTransaction;
  try {
    decoded = TransactionBuilder.fromXDR(envelope, expected.networkPassphrase);
  } catch (cause) {
    refuse(
      "malformed_transaction",
      `not a transaction envelope: ${cause instanceof Error ? cause.message : cause}`,
    );
  }
  if (decoded instanceof FeeBumpTransaction) refuse("malformed_transaction", "a fee bump is never prepared");
  const tx = decoded;
  if (tx.source !== expected.source) {
    refuse("source_mismatch", `the transaction's source is ${tx.source}, not ${expected.source}`);
  }
  const [op, ...rest] = tx.operations;
  if (op === undefined || rest.length > 0) {
    refuse("unexpected_operations", `${tx.operations.length} operations, not exactly one`);
  }
  if (op.type !== "payment") refuse("unexpected_operations", `the operation is ${op.type}, not a payment`);
  if (op.source !== undefined && op.source !== expected.source) {
    refuse("source_mismatch", `the payment is made by ${op.source}`);
  }
  if (op.destination !== expected.destination) {
    refuse("destination_mismatch", `it pays ${op.destination}, not ${expected.destination}`);
  }
  if (!op.asset.isNative()) refuse("asset_mismatch", `it pays ${op.asset.getCode()}, not native XLM`);
  let asked: bigint;
  try {
    asked = xlmToStroops(expected.amountXlm);
  } catch {
    refuse("amount_mismatch", `the expected amount ${expected.amountXlm} is not an XLM amount`);
  }
  if (xlmToStroops(op.amount) !== asked) {
    refuse("amount_mismatch", `it pays ${op.amount} XLM, not ${expected.amountXlm}`);
  }
  const memo = tx.memo;
  const memoHex = memo.type === "hash" && memo.value !== null ? hex(memo.value as Uint8Array) : null;
  if (memoHex === null || memoHex !== expected.memoHash.toLowerCase()) {
    refuse(
      "memo_mismatch",
      `its memo is ${memoHex === null ? `a ${memo.type} memo` : memoHex}, not the hash ${expected.memoHash}`,
    );
  }
  const feeStroops = BigInt(tx.fee);
  const bound = BigInt(expected.maxFeeStroops ?? DEFAULT_MAX_PAYMENT_FEE_STROOPS);
  if (feeStroops > bound) refuse("fee_too_high", `fee ${feeStroops} stroops is above the bound ${bound}`);
  const maxSeconds = expected.maxValiditySeconds ?? DEFAULT_MAX_VALIDITY_SECONDS;
  const maxTime = BigInt(tx.timeBounds?.maxTime ?? "0");
  if (maxTime === 0n)
    refuse("validity_too_long", "the transaction has no upper time bound: it never expires");
  if (maxTime > BigInt(Math.floor(Date.now() / 1000) + maxSeconds)) {
    refuse(
      "validity_too_long",
      `the transaction stays valid until ${maxTime}, more than ${maxSeconds} s from now`,
    );
  }
  return { transaction: tx, feeStroops };
}

/** Lower-case hex of bytes, without Node's Buffer (the client also runs in browsers). */
function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
