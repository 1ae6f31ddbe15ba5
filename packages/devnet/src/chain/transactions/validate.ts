// Envelope-level checks, as stellar-core runs them when a transaction is submitted and again when applied.
import { availableBalance, muxedToAccountId, readAccount } from "../accounts.ts";
import type { StateReader } from "../ledger-state.ts";
import { isSorobanTransaction, type ParsedTransaction } from "./envelope.ts";
import { declaredNonRefundableFee, declaredResourceFee, minimumFee, upfrontFee } from "./fees.ts";
import type { TxFailure, TxFailureCode } from "./results.ts";
import { signaturesBy } from "./signatures.ts";

export interface ValidationContext {
  readonly state: StateReader;
  /** Close time checked against time bounds: the last closed ledger's at submission, the closing one's at apply. */
  readonly closeTime: bigint;
  /** Sequence of the ledger the transaction would be applied in. */
  readonly ledgerSeq: number;
}

const fail = (code: TxFailureCode, inner = true): TxFailure => ({ code, inner });

export function validateTransaction(tx: ParsedTransaction, ctx: ValidationContext): TxFailure | undefined {
  const body = tx.inner;
  if (body.operations.length === 0) return fail("txMissingOperation");
  const soroban = isSorobanTransaction(body);
  if (soroban && (body.operations.length !== 1 || body.sorobanData === undefined)) return fail("txMalformed");
  if (!soroban && body.sorobanData !== undefined) return fail("txMalformed");
  if (body.timeBounds !== undefined) {
    if (body.timeBounds.minTime > ctx.closeTime) return fail("txTooEarly");
    if (body.timeBounds.maxTime !== 0n && body.timeBounds.maxTime < ctx.closeTime) return fail("txTooLate");
  }
  if (body.ledgerBounds !== undefined) {
    if (body.ledgerBounds.minLedger > ctx.ledgerSeq) return fail("txTooEarly");
    if (body.ledgerBounds.maxLedger !== 0 && body.ledgerBounds.maxLedger <= ctx.ledgerSeq)
      return fail("txTooLate");
  }
  if (tx.feeBump !== undefined) {
    if (tx.feeBump.fee < minimumFee(tx)) return fail("txInsufficientFee", false);
    const feeSource = readAccount(ctx.state, tx.feeBump.feeSource);
    if (feeSource === undefined) return fail("txNoAccount", false);
    if (signaturesBy(tx.feeBump.hash, tx.feeBump.signatures, tx.feeBump.feeSource).length === 0) {
      return fail("txBadAuth", false);
    }
    if (availableBalance(feeSource) < upfrontFee(tx)) return fail("txInsufficientBalance", false);
  } else if (body.fee < minimumFee(tx)) {
    return fail("txInsufficientFee");
  }
  const source = readAccount(ctx.state, body.source);
  if (source === undefined) return fail("txNoAccount");
  if (body.seqNum !== source.seqNum + 1n) return fail("txBadSeq");
  const signers = new Set([body.source]);
  for (const op of body.operations) {
    if (op.sourceAccount !== null) signers.add(muxedToAccountId(op.sourceAccount));
  }
  const used = new Set<number>();
  for (const signer of signers) {
    const sigs = signaturesBy(body.hash, body.signatures, signer);
    if (sigs.length === 0) return fail("txBadAuth");
    for (const s of sigs) used.add(s);
  }
  if (tx.feeBump === undefined && availableBalance(source) < upfrontFee(tx))
    return fail("txInsufficientBalance");
  if (soroban && declaredResourceFee(body) < declaredNonRefundableFee(tx)) return fail("txSorobanInvalid");
  if (used.size < body.signatures.length) return fail("txBadAuthExtra");
  return undefined;
}
