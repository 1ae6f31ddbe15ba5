// simulateTransaction: runs the invocation on a throw-away overlay in recording (or enforcing) auth mode and
// derives the footprint, resources and fee the transaction must declare.
import { xdr } from "@stellar/stellar-sdk";
import { muxedToAccountId } from "../accounts.ts";
import { type EntryChange, StateOverlay, type StateStore } from "../ledger-state.ts";
import { toLedgerEntry } from "../transactions/meta.ts";
import { type AuthPolicy, EnforcingAuth, RecordingAuth } from "./auth.ts";
import { Footprint } from "./footprint.ts";
import type { HostEnvironment } from "./host.ts";
import { type HostError, hostFailure } from "./host-error.ts";
import { runHostFunction } from "./invoke-host-function.ts";
import {
  adjustInstructions,
  adjustRefundable,
  adjustTxSize,
  nonRefundableFee,
  refundableFee,
} from "./resource-fee.ts";

export type AuthMode = "enforce" | "record" | "record_allow_nonroot";

export interface SimulationSuccess {
  readonly ok: true;
  readonly returnValue?: xdr.ScVal;
  readonly auth: xdr.SorobanAuthorizationEntry[];
  readonly transactionData: xdr.SorobanTransactionData;
  readonly minResourceFee: bigint;
  readonly events: xdr.DiagnosticEvent[];
  readonly stateChanges: SimulatedChange[];
}

export interface SimulationFailure {
  readonly ok: false;
  /** The message simulateTransaction returns in `error`. */
  readonly error: string;
  readonly events: xdr.DiagnosticEvent[];
}

export interface SimulatedChange {
  readonly type: "created" | "updated" | "deleted";
  readonly key: xdr.LedgerKey;
  readonly before: xdr.LedgerEntry | null;
  readonly after: xdr.LedgerEntry | null;
}

const SIGNATURE_BYTES = 72;
const ADDRESS_SIGNATURE_BYTES = 160;

function failure(error: string, events: xdr.DiagnosticEvent[] = []): SimulationFailure {
  return { ok: false, error, events };
}

/** The text stellar-rpc puts in `error`: the host error, then the event log newest first. */
export function describeHostFailure(error: HostError, events: readonly xdr.DiagnosticEvent[]): string {
  const log = [...events]
    .reverse()
    .map((e, i) => `    ${i}: [Diagnostic Event] ${JSON.stringify(e.event.toJson())}`)
    .join("\n");
  return `HostError: ${error.description}\n\nEvent log (newest first):\n${log}\n\n${error.message}`;
}

function stateChanges(changes: readonly EntryChange[]): SimulatedChange[] {
  return changes.map(({ before, after }) => ({
    type: before === undefined ? "created" : after === undefined ? "deleted" : "updated",
    key: (after ?? before)?.key as xdr.LedgerKey,
    before: before === undefined ? null : toLedgerEntry(before),
    after: after === undefined ? null : toLedgerEntry(after),
  }));
}

export interface SimulationInput {
  readonly envelope: xdr.TransactionEnvelope;
  readonly state: StateStore;
  readonly env: HostEnvironment;
  readonly authMode?: AuthMode;
}

function unwrap(envelope: xdr.TransactionEnvelope): xdr.Transaction | undefined {
  if (envelope.type === "envelopeTypeTx") return envelope.v1.tx;
  if (envelope.type === "envelopeTypeTxFeeBump") return envelope.feeBump.tx.innerTx.value.tx;
  return undefined;
}

export function simulateTransaction(input: SimulationInput): SimulationSuccess | SimulationFailure {
  const tx = unwrap(input.envelope);
  if (tx === undefined) return failure("Transaction must be a v1 or fee-bump envelope");
  const op = tx.operations[0];
  if (op === undefined) return failure("Transaction contains no operations");
  if (tx.operations.length !== 1) return failure("Transaction contains more than one operation");
  const source = muxedToAccountId(op.sourceAccount ?? tx.sourceAccount);
  const envelopeBytes = input.envelope.toXdr().length;
  if (op.body.type === "extendFootprintTtl" || op.body.type === "restoreFootprint") {
    return simulateTtlOperation(tx, envelopeBytes);
  }
  if (op.body.type !== "invokeHostFunction") {
    return failure(`Transaction contains unsupported operation type: ${op.body.type}`);
  }
  const invoke = op.body.invokeHostFunctionOp;
  const mode = input.authMode ?? (invoke.auth.length > 0 ? "enforce" : "record");
  const recorder = mode === "enforce" ? undefined : new RecordingAuth(source);
  const auth: AuthPolicy = recorder ?? new EnforcingAuth(source, invoke.auth);
  const overlay = new StateOverlay(input.state);
  const footprint = new Footprint();
  const outcome = runHostFunction({
    env: input.env,
    state: overlay,
    sourceAccount: source,
    hostFunction: invoke.hostFunction,
    auth,
    footprint,
  });
  const committed = new Set<xdr.ContractEvent>(outcome.ok ? outcome.host.events : []);
  const events = outcome.host.log.map(
    (e) =>
      new xdr.DiagnosticEvent({
        inSuccessfulContractCall: e.kind === "contract" ? committed.has(e.event) : outcome.ok,
        event: e.event,
      }),
  );
  if (!outcome.ok) return failure(describeHostFailure(outcome.error, events), events);

  const authEntries = recorder?.entries() ?? [...invoke.auth];
  const fp = footprint.toXdr();
  const used = outcome.host.metering;
  const addressEntries = authEntries.filter(
    (e) => e.credentials.type !== "sorobanCredentialsSourceAccount",
  ).length;
  const estimatedSize =
    envelopeBytes +
    fp.toXdr().length +
    authEntries.reduce((n, e) => n + e.toXdr().length, 0) +
    addressEntries * ADDRESS_SIGNATURE_BYTES +
    SIGNATURE_BYTES +
    64;
  const instructions = adjustInstructions(used.instructions);
  const nonRefundable = nonRefundableFee({
    instructions,
    diskReadBytes: used.diskReadBytes,
    writeBytes: used.writeBytes,
    readEntries: fp.readOnly.length + fp.readWrite.length,
    writeEntries: fp.readWrite.length,
    txSizeBytes: adjustTxSize(estimatedSize),
  });
  const minResourceFee =
    nonRefundable + adjustRefundable(refundableFee(used.eventsBytes, fp.readWrite.length));
  const transactionData = new xdr.SorobanTransactionData({
    ext: xdr.SorobanTransactionDataExt.v0(),
    resources: new xdr.SorobanResources({
      footprint: fp,
      instructions,
      diskReadBytes: used.diskReadBytes,
      writeBytes: used.writeBytes,
    }),
    resourceFee: minResourceFee,
  });
  return {
    ok: true,
    returnValue: outcome.returnValue,
    auth: authEntries,
    transactionData,
    minResourceFee,
    events,
    stateChanges: stateChanges(overlay.changes()),
  };
}

function simulateTtlOperation(
  tx: xdr.Transaction,
  envelopeBytes: number,
): SimulationSuccess | SimulationFailure {
  if (tx.ext.type !== "sorobanData") {
    const error = hostFailure(
      "Storage",
      "scecMissingValue",
      "the operation needs a footprint in its soroban data",
    );
    return failure(describeHostFailure(error, []));
  }
  const fp = tx.ext.sorobanData.resources.footprint;
  const minResourceFee = nonRefundableFee({
    instructions: 0,
    diskReadBytes: 0,
    writeBytes: 0,
    readEntries: fp.readOnly.length + fp.readWrite.length,
    writeEntries: fp.readWrite.length,
    txSizeBytes: adjustTxSize(envelopeBytes + SIGNATURE_BYTES),
  });
  const transactionData = new xdr.SorobanTransactionData({
    ext: xdr.SorobanTransactionDataExt.v0(),
    resources: new xdr.SorobanResources({ footprint: fp, instructions: 0, diskReadBytes: 0, writeBytes: 0 }),
    resourceFee: minResourceFee,
  });
  return { ok: true, auth: [], transactionData, minResourceFee, events: [], stateChanges: [] };
}
