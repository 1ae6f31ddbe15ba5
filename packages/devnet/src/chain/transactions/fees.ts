// Fees a transaction bids and is charged: base fee per operation, plus the declared Soroban resource fee.
import { BASE_FEE } from "../accounts.ts";
import { nonRefundableFee } from "../soroban/resource-fee.ts";
import { isSorobanTransaction, type ParsedTransaction, type TransactionBody } from "./envelope.ts";

export function declaredResourceFee(body: TransactionBody): bigint {
  return body.sorobanData?.resourceFee ?? 0n;
}

/** Operations the inclusion fee is counted over (a fee bump counts as one more). */
export function feeOperations(tx: ParsedTransaction): number {
  return tx.inner.operations.length + (tx.feeBump === undefined ? 0 : 1);
}

export function minimumFee(tx: ParsedTransaction): bigint {
  return BigInt(BASE_FEE * Math.max(1, feeOperations(tx))) + declaredResourceFee(tx.inner);
}

export function bidFee(tx: ParsedTransaction): bigint {
  return tx.feeBump?.fee ?? tx.inner.fee;
}

/** What a transaction pays before any refund: the inclusion fee at base rate plus the full resource fee. */
export function upfrontFee(tx: ParsedTransaction): bigint {
  return minimumFee(tx);
}

export function declaredNonRefundableFee(tx: ParsedTransaction): bigint {
  const data = tx.inner.sorobanData;
  if (data === undefined || !isSorobanTransaction(tx.inner)) return 0n;
  const r = data.resources;
  return nonRefundableFee({
    instructions: r.instructions,
    diskReadBytes: r.diskReadBytes,
    writeBytes: r.writeBytes,
    readEntries: r.footprint.readOnly.length + r.footprint.readWrite.length,
    writeEntries: r.footprint.readWrite.length,
    txSizeBytes: tx.sizeBytes,
  });
}
