// createAccount and native payment, with CAP-67 events from the native asset contract.
import { xdr } from "@stellar/stellar-sdk";
import {
  availableBalance,
  minimumBalance,
  muxedToAccountId,
  newAccountEntry,
  publicKeyToAccountId,
  readAccount,
  withAccountChanges,
  writeAccount,
} from "../accounts.ts";
import type { StateStore } from "../ledger-state.ts";
import { transferEvent } from "../soroban/native-token.ts";
import { i128, struct } from "../soroban/scval.ts";
import { contractEvent } from "./meta.ts";

export interface OperationContext {
  readonly state: StateStore;
  readonly ledgerSeq: number;
  readonly memo: xdr.Memo;
  readonly nativeTokenId: string;
}

export interface OperationOutcome {
  readonly result: xdr.OperationResult;
  readonly success: boolean;
  readonly events: xdr.ContractEvent[];
  readonly returnValue?: xdr.ScVal;
}

const MAX_I64 = (1n << 63n) - 1n;

const createAccountResult = (r: xdr.CreateAccountResult, success = false): OperationOutcome => ({
  result: xdr.OperationResult.opInner(xdr.OperationResultTr.createAccount(r)),
  success,
  events: [],
});

const paymentResult = (r: xdr.PaymentResult, success = false): OperationOutcome => ({
  result: xdr.OperationResult.opInner(xdr.OperationResultTr.payment(r)),
  success,
  events: [],
});

/** CAP-67: a memo or a muxed destination turns the data into `{amount, to_muxed_id}`. */
function transferData(amount: bigint, memo: xdr.Memo, destination?: xdr.MuxedAccount): xdr.ScVal {
  let muxedId: xdr.ScVal | undefined;
  if (destination?.type === "keyTypeMuxedEd25519") muxedId = xdr.ScVal.scvU64(destination.med25519.id);
  else if (memo.type === "memoText") muxedId = xdr.ScVal.scvString(memo.text);
  else if (memo.type === "memoId") muxedId = xdr.ScVal.scvU64(memo.id);
  else if (memo.type === "memoHash") muxedId = xdr.ScVal.scvBytes(memo.hash.value);
  else if (memo.type === "memoReturn") muxedId = xdr.ScVal.scvBytes(memo.retHash.value);
  return muxedId === undefined ? i128(amount) : struct({ amount: i128(amount), to_muxed_id: muxedId });
}

function nativeTransfer(
  ctx: OperationContext,
  from: string,
  to: string,
  amount: bigint,
  dest?: xdr.MuxedAccount,
) {
  const { topics } = transferEvent(from, to, amount);
  return contractEvent(ctx.nativeTokenId, topics, transferData(amount, ctx.memo, dest));
}

export function applyCreateAccount(
  op: xdr.CreateAccountOp,
  source: string,
  ctx: OperationContext,
): OperationOutcome {
  const destination = publicKeyToAccountId(op.destination);
  if (op.startingBalance < 0n || destination === source) {
    return createAccountResult(xdr.CreateAccountResult.createAccountMalformed());
  }
  if (readAccount(ctx.state, destination) !== undefined) {
    return createAccountResult(xdr.CreateAccountResult.createAccountAlreadyExist());
  }
  const created = newAccountEntry(destination, op.startingBalance, BigInt(ctx.ledgerSeq) << 32n);
  if (op.startingBalance < minimumBalance(created)) {
    return createAccountResult(xdr.CreateAccountResult.createAccountLowReserve());
  }
  const payer = readAccount(ctx.state, source);
  if (payer === undefined || availableBalance(payer) < op.startingBalance) {
    return createAccountResult(xdr.CreateAccountResult.createAccountUnderfunded());
  }
  writeAccount(
    ctx.state,
    source,
    withAccountChanges(payer, { balance: payer.balance - op.startingBalance }),
    ctx.ledgerSeq,
  );
  writeAccount(ctx.state, destination, created, ctx.ledgerSeq);
  return {
    ...createAccountResult(xdr.CreateAccountResult.createAccountSuccess(), true),
    events: [nativeTransfer(ctx, source, destination, op.startingBalance)],
  };
}

export function applyPayment(op: xdr.PaymentOp, source: string, ctx: OperationContext): OperationOutcome {
  if (op.amount <= 0n) return paymentResult(xdr.PaymentResult.paymentMalformed());
  if (op.asset.type !== "assetTypeNative") return paymentResult(xdr.PaymentResult.paymentSrcNoTrust());
  const destination = muxedToAccountId(op.destination);
  const receiver = readAccount(ctx.state, destination);
  if (receiver === undefined) return paymentResult(xdr.PaymentResult.paymentNoDestination());
  const payer = readAccount(ctx.state, source);
  if (payer === undefined || availableBalance(payer) < op.amount) {
    return paymentResult(xdr.PaymentResult.paymentUnderfunded());
  }
  if (destination !== source) {
    if (receiver.balance + op.amount > MAX_I64) return paymentResult(xdr.PaymentResult.paymentLineFull());
    writeAccount(
      ctx.state,
      source,
      withAccountChanges(payer, { balance: payer.balance - op.amount }),
      ctx.ledgerSeq,
    );
    writeAccount(
      ctx.state,
      destination,
      withAccountChanges(receiver, { balance: receiver.balance + op.amount }),
      ctx.ledgerSeq,
    );
  }
  return {
    ...paymentResult(xdr.PaymentResult.paymentSuccess(), true),
    events: [nativeTransfer(ctx, source, destination, op.amount, op.destination)],
  };
}
