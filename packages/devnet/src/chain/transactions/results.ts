// TransactionResult XDR for envelope-level failures and for applied transactions, fee bumps included.
import { xdr } from "@stellar/stellar-sdk";
import type { ParsedTransaction } from "./envelope.ts";

/** Envelope-level result codes without a payload (the TransactionResultResult arms that carry none). */
export type TxFailureCode =
  | "txTooEarly"
  | "txTooLate"
  | "txMissingOperation"
  | "txBadSeq"
  | "txBadAuth"
  | "txInsufficientBalance"
  | "txNoAccount"
  | "txInsufficientFee"
  | "txBadAuthExtra"
  | "txInternalError"
  | "txNotSupported"
  | "txBadMinSeqAgeOrGap"
  | "txMalformed"
  | "txSorobanInvalid";

export interface TxFailure {
  readonly code: TxFailureCode;
  /** Failures of a fee bump's inner transaction are reported inside txFEE_BUMP_INNER_FAILED. */
  readonly inner: boolean;
}

function innerCode(code: TxFailureCode): xdr.InnerTransactionResultResult {
  return xdr.InnerTransactionResultResult[code]();
}

function outerCode(code: TxFailureCode): xdr.TransactionResultResult {
  return xdr.TransactionResultResult[code]();
}

export function failureResult(
  tx: ParsedTransaction,
  failure: TxFailure,
  feeCharged: bigint,
): xdr.TransactionResult {
  let result: xdr.TransactionResultResult;
  if (tx.feeBump !== undefined && failure.inner) {
    result = xdr.TransactionResultResult.txFeeBumpInnerFailed(
      new xdr.InnerTransactionResultPair({
        transactionHash: tx.inner.hash,
        result: new xdr.InnerTransactionResult({
          feeCharged: 0n,
          result: innerCode(failure.code),
          ext: xdr.InnerTransactionResultExt.v0(),
        }),
      }),
    );
  } else {
    result = outerCode(failure.code);
  }
  return new xdr.TransactionResult({ feeCharged, result, ext: xdr.TransactionResultExt.v0() });
}

export function appliedResult(
  tx: ParsedTransaction,
  success: boolean,
  operations: xdr.OperationResult[],
  feeCharged: bigint,
): xdr.TransactionResult {
  let result: xdr.TransactionResultResult;
  if (tx.feeBump !== undefined) {
    const pair = new xdr.InnerTransactionResultPair({
      transactionHash: tx.inner.hash,
      result: new xdr.InnerTransactionResult({
        feeCharged: 0n,
        result: success
          ? xdr.InnerTransactionResultResult.txSuccess(operations)
          : xdr.InnerTransactionResultResult.txFailed(operations),
        ext: xdr.InnerTransactionResultExt.v0(),
      }),
    });
    result = success
      ? xdr.TransactionResultResult.txFeeBumpInnerSuccess(pair)
      : xdr.TransactionResultResult.txFeeBumpInnerFailed(pair);
  } else {
    result = success
      ? xdr.TransactionResultResult.txSuccess(operations)
      : xdr.TransactionResultResult.txFailed(operations);
  }
  return new xdr.TransactionResult({ feeCharged, result, ext: xdr.TransactionResultExt.v0() });
}
