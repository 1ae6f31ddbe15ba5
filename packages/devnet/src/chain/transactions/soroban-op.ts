// Applies an InvokeHostFunction (or TTL) operation: enforcing auth, the declared footprint and resources.
import { hash, xdr } from "@stellar/stellar-sdk";
import type { StateStore } from "../ledger-state.ts";
import { EnforcingAuth } from "../soroban/auth.ts";
import { Footprint } from "../soroban/footprint.ts";
import type { HostEnvironment } from "../soroban/host.ts";
import type { HostError } from "../soroban/host-error.ts";
import { runHostFunction } from "../soroban/invoke-host-function.ts";
import { refundableFee } from "../soroban/resource-fee.ts";
import type { OperationOutcome } from "./classic-ops.ts";

export interface SorobanOperationContext {
  readonly state: StateStore;
  readonly env: HostEnvironment;
  readonly sorobanData: xdr.SorobanTransactionData;
  /** Resource fee left for refundable charges once the non-refundable part is paid. */
  readonly refundableBudget: bigint;
}

export interface SorobanOutcome extends OperationOutcome {
  readonly refundableCharged: bigint;
  /** The host error of a failed invocation (for diagnostics). */
  readonly error?: HostError;
  /**
   * The host's diagnostic log of a failed invocation (fn_call, error and fn_return events), as a node with
   * ENABLE_SOROBAN_DIAGNOSTIC_EVENTS keeps in the meta, so a client can tell which contract raised the error.
   */
  readonly diagnostics?: xdr.DiagnosticEvent[];
}

const invokeResult = (
  r: xdr.InvokeHostFunctionResult,
  extra: Partial<SorobanOutcome> = {},
): SorobanOutcome => ({
  result: xdr.OperationResult.opInner(xdr.OperationResultTr.invokeHostFunction(r)),
  success: false,
  events: [],
  refundableCharged: 0n,
  ...extra,
});

export function applyInvokeHostFunction(
  op: xdr.InvokeHostFunctionOp,
  source: string,
  ctx: SorobanOperationContext,
): SorobanOutcome {
  const resources = ctx.sorobanData.resources;
  const outcome = runHostFunction({
    env: ctx.env,
    state: ctx.state,
    sourceAccount: source,
    hostFunction: op.hostFunction,
    auth: new EnforcingAuth(source, op.auth),
    footprint: new Footprint(resources.footprint),
  });
  const used = outcome.host.metering;
  if (!outcome.ok) {
    const diagnostics = outcome.host.log.map(
      (e) => new xdr.DiagnosticEvent({ inSuccessfulContractCall: false, event: e.event }),
    );
    return invokeResult(xdr.InvokeHostFunctionResult.invokeHostFunctionTrapped(), {
      error: outcome.error,
      diagnostics,
    });
  }
  if (
    used.instructions > resources.instructions ||
    used.diskReadBytes > resources.diskReadBytes ||
    used.writeBytes > resources.writeBytes
  ) {
    return invokeResult(xdr.InvokeHostFunctionResult.invokeHostFunctionResourceLimitExceeded());
  }
  const refundable = refundableFee(used.eventsBytes, resources.footprint.readWrite.length);
  if (refundable > ctx.refundableBudget) {
    return invokeResult(xdr.InvokeHostFunctionResult.invokeHostFunctionInsufficientRefundableFee());
  }
  const events = [...outcome.host.events];
  const preimage = new xdr.InvokeHostFunctionSuccessPreImage({ returnValue: outcome.returnValue, events });
  return invokeResult(xdr.InvokeHostFunctionResult.invokeHostFunctionSuccess(hash(preimage.toXdr())), {
    success: true,
    events,
    returnValue: outcome.returnValue,
    refundableCharged: refundable,
  });
}

/** Entries never expire on the devnet, so extending or restoring them has nothing to do. */
export function applyTtlOperation(type: "extendFootprintTtl" | "restoreFootprint"): SorobanOutcome {
  const result =
    type === "extendFootprintTtl"
      ? xdr.OperationResultTr.extendFootprintTtl(xdr.ExtendFootprintTtlResult.extendFootprintTtlSuccess())
      : xdr.OperationResultTr.restoreFootprint(xdr.RestoreFootprintResult.restoreFootprintSuccess());
  return { result: xdr.OperationResult.opInner(result), success: true, events: [], refundableCharged: 0n };
}
