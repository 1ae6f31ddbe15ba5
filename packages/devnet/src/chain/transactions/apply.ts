// Applies one transaction at ledger close: fee, sequence bump, operations (all or nothing), Soroban refund,
// and the TransactionResult / TransactionMeta v4 that getTransaction serves.
import { xdr } from "@stellar/stellar-sdk";
import { BASE_FEE, muxedToAccountId, readAccount, withAccountChanges, writeAccount } from "../accounts.ts";
import { StateOverlay, type StateStore } from "../ledger-state.ts";
import type { HostEnvironment } from "../soroban/host.ts";
import type { HostError } from "../soroban/host-error.ts";
import { addressVal, i128, symbol } from "../soroban/scval.ts";
import {
  applyCreateAccount,
  applyPayment,
  type OperationContext,
  type OperationOutcome,
} from "./classic-ops.ts";
import { isSorobanTransaction, type ParsedTransaction } from "./envelope.ts";
import { declaredNonRefundableFee, declaredResourceFee, upfrontFee } from "./fees.ts";
import { contractEvent, entryChangesXdr } from "./meta.ts";
import { appliedResult, failureResult } from "./results.ts";
import { applyInvokeHostFunction, applyTtlOperation, type SorobanOutcome } from "./soroban-op.ts";
import { validateTransaction } from "./validate.ts";

export interface ApplyContext {
  readonly state: StateStore;
  readonly ledgerSeq: number;
  readonly closeTime: bigint;
  readonly env: HostEnvironment;
  readonly nativeTokenId: string;
}

export interface AppliedTransaction {
  readonly tx: ParsedTransaction;
  readonly successful: boolean;
  readonly result: xdr.TransactionResult;
  readonly meta: xdr.TransactionMeta;
  readonly feeChanges: xdr.LedgerEntryChange[];
  readonly postFeeChanges: xdr.LedgerEntryChange[];
  /** Contract events per operation (empty lists for a failed transaction). */
  readonly operationEvents: xdr.ContractEvent[][];
  readonly transactionEvents: xdr.TransactionEvent[];
  readonly returnValue?: xdr.ScVal;
  readonly error?: HostError;
}

/** Meta of a transaction that changed nothing (rejected before or during application). */
export function emptyMeta(): xdr.TransactionMeta {
  return xdr.TransactionMeta.v4(
    new xdr.TransactionMetaV4({
      ext: xdr.ExtensionPoint.v0(),
      txChangesBefore: [],
      operations: [],
      txChangesAfter: [],
      sorobanMeta: null,
      events: [],
      diagnosticEvents: [],
    }),
  );
}

function adjustBalance(
  state: StateStore,
  accountId: string,
  delta: bigint,
  ledgerSeq: number,
): xdr.LedgerEntryChange[] {
  const overlay = new StateOverlay(state);
  const account = readAccount(overlay, accountId);
  if (account === undefined) return [];
  writeAccount(
    overlay,
    accountId,
    withAccountChanges(account, { balance: account.balance + delta }),
    ledgerSeq,
  );
  const changes = entryChangesXdr(overlay.changes());
  overlay.commit();
  return changes;
}

function feeEvent(
  ctx: ApplyContext,
  payer: string,
  amount: bigint,
  stage: xdr.TransactionEventStage,
): xdr.TransactionEvent {
  return new xdr.TransactionEvent({
    stage,
    event: contractEvent(ctx.nativeTokenId, [symbol("fee"), addressVal(payer)], i128(amount)),
  });
}

export function applyTransaction(tx: ParsedTransaction, ctx: ApplyContext): AppliedTransaction {
  const body = tx.inner;
  const failure = validateTransaction(tx, {
    state: ctx.state,
    closeTime: ctx.closeTime,
    ledgerSeq: ctx.ledgerSeq,
  });
  if (failure !== undefined) {
    return {
      tx,
      successful: false,
      result: failureResult(tx, failure, 0n),
      meta: emptyMeta(),
      feeChanges: [],
      postFeeChanges: [],
      operationEvents: [],
      transactionEvents: [],
    };
  }
  const payer = tx.feeBump?.feeSource ?? body.source;
  const upfront = upfrontFee(tx);
  const feeChanges = adjustBalance(ctx.state, payer, -upfront, ctx.ledgerSeq);

  const seqState = new StateOverlay(ctx.state);
  const source = readAccount(seqState, body.source);
  if (source !== undefined)
    writeAccount(seqState, body.source, withAccountChanges(source, { seqNum: body.seqNum }), ctx.ledgerSeq);
  const txChangesBefore = entryChangesXdr(seqState.changes());
  seqState.commit();

  const soroban = isSorobanTransaction(body);
  const nonRefundable = declaredNonRefundableFee(tx);
  const opsState = new StateOverlay(ctx.state);
  const opResults: xdr.OperationResult[] = [];
  const opMetas: xdr.OperationMetaV2[] = [];
  const operationEvents: xdr.ContractEvent[][] = [];
  let successful = true;
  let returnValue: xdr.ScVal | undefined;
  let refundableCharged = 0n;
  let error: HostError | undefined;
  const diagnostics: xdr.DiagnosticEvent[] = [];
  for (const op of body.operations) {
    const opState = new StateOverlay(opsState);
    const opSource = op.sourceAccount === null ? body.source : muxedToAccountId(op.sourceAccount);
    const outcome = applyOperation(op, opSource, opState, tx, ctx, declaredResourceFee(body) - nonRefundable);
    opResults.push(outcome.result);
    if (!outcome.success) {
      successful = false;
      if ("error" in outcome) error = (outcome as SorobanOutcome).error;
      diagnostics.push(...((outcome as Partial<SorobanOutcome>).diagnostics ?? []));
      continue;
    }
    if (outcome.returnValue !== undefined) returnValue = outcome.returnValue;
    if ("refundableCharged" in outcome) refundableCharged += (outcome as SorobanOutcome).refundableCharged;
    opMetas.push(
      new xdr.OperationMetaV2({
        ext: xdr.ExtensionPoint.v0(),
        changes: entryChangesXdr(opState.changes()),
        events: outcome.events,
      }),
    );
    operationEvents.push(outcome.events);
    opState.commit();
  }
  if (successful) opsState.commit();

  const charged = soroban
    ? upfront - declaredResourceFee(body) + nonRefundable + (successful ? refundableCharged : 0n)
    : BigInt(BASE_FEE * body.operations.length + (tx.feeBump === undefined ? 0 : BASE_FEE));
  const refund = upfront - charged;
  const postFeeChanges = refund > 0n ? adjustBalance(ctx.state, payer, refund, ctx.ledgerSeq) : [];
  const transactionEvents = [
    feeEvent(ctx, payer, upfront, xdr.TransactionEventStage.transactionEventStageBeforeAllTxs),
  ];
  if (refund > 0n) {
    transactionEvents.push(
      feeEvent(ctx, payer, -refund, xdr.TransactionEventStage.transactionEventStageAfterTx),
    );
  }

  const meta = xdr.TransactionMeta.v4(
    new xdr.TransactionMetaV4({
      ext: xdr.ExtensionPoint.v0(),
      txChangesBefore,
      operations: successful ? opMetas : [],
      txChangesAfter: [],
      sorobanMeta: soroban
        ? new xdr.SorobanTransactionMetaV2({
            ext: xdr.SorobanTransactionMetaExt.v1(
              new xdr.SorobanTransactionMetaExtV1({
                ext: xdr.ExtensionPoint.v0(),
                totalNonRefundableResourceFeeCharged: nonRefundable,
                totalRefundableResourceFeeCharged: successful ? refundableCharged : 0n,
                rentFeeCharged: 0n,
              }),
            ),
            returnValue: successful ? (returnValue ?? null) : null,
          })
        : null,
      events: transactionEvents,
      diagnosticEvents: diagnostics,
    }),
  );
  return {
    tx,
    successful,
    result: appliedResult(tx, successful, opResults, charged),
    meta,
    feeChanges,
    postFeeChanges,
    operationEvents: successful ? operationEvents : [],
    transactionEvents,
    returnValue: successful ? returnValue : undefined,
    error,
  };
}

function applyOperation(
  op: xdr.Operation,
  source: string,
  state: StateStore,
  tx: ParsedTransaction,
  ctx: ApplyContext,
  refundableBudget: bigint,
): OperationOutcome {
  if (readAccount(state, source) === undefined) {
    return { result: xdr.OperationResult.opNoAccount(), success: false, events: [] };
  }
  const opCtx: OperationContext = {
    state,
    ledgerSeq: ctx.ledgerSeq,
    memo: tx.inner.memo,
    nativeTokenId: ctx.nativeTokenId,
  };
  const body = op.body;
  switch (body.type) {
    case "createAccount":
      return applyCreateAccount(body.createAccountOp, source, opCtx);
    case "payment":
      return applyPayment(body.paymentOp, source, opCtx);
    case "invokeHostFunction": {
      const sorobanData = tx.inner.sorobanData;
      if (sorobanData === undefined)
        return { result: xdr.OperationResult.opNotSupported(), success: false, events: [] };
      return applyInvokeHostFunction(body.invokeHostFunctionOp, source, {
        state,
        env: ctx.env,
        sorobanData,
        refundableBudget,
      });
    }
    case "extendFootprintTtl":
    case "restoreFootprint":
      return applyTtlOperation(body.type);
    default:
      return { result: xdr.OperationResult.opNotSupported(), success: false, events: [] };
  }
}
