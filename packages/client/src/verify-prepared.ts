// The wallet's check of a prepared transaction (docs/api.md, "Prepare and submit": "before signing, a wallet
// decodes the XDR and checks the contract, function, arguments, source and network passphrase"). The service
// builds and simulates; nothing it returns is signed until this has decoded the envelope and found exactly the
// one call that was asked for: a mirror that is wrong, or lies, cannot get a wallet's signature on anything else.
import {
  Address,
  FeeBumpTransaction,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { NameregError } from "./api.ts";

/** What the wallet asked for, from its own state and configuration: never from the prepare answer alone. */
export interface PreparedExpectation {
  /** The network the wallet signs for. */
  readonly networkPassphrase: string;
  /** The account that signs: the transaction's source and the only account whose authorisation it may use. */
  readonly source: string;
  /** The contract (`C…`) the one operation must call. */
  readonly contractId: string;
  /** The function it must call. */
  readonly function: string;
  /** Exactly the arguments it must pass, in order. */
  readonly args: readonly xdr.ScVal[];
  /** Highest total fee (inclusion + resources) accepted, in stroops. Default: DEFAULT_MAX_FEE_STROOPS. */
  readonly maxFeeStroops?: bigint | number | string;
  /**
   * Longest the signed transaction may stay submittable, in seconds from now (its upper time bound). Default:
   * DEFAULT_MAX_VALIDITY_SECONDS. A transaction without an upper bound is always refused.
   */
  readonly maxValiditySeconds?: number;
}

/**
 * 1 hour: the service prepares for 15 minutes (docs/api.md, "Prepare and submit"); the margin covers a wallet's
 * clock running behind. A signature on a transaction that never expires could be held and submitted at any later
 * time, against whatever the state has become.
 */
export const DEFAULT_MAX_VALIDITY_SECONDS = 3600;

/** 1 XLM: far above what one registrar or resolver call costs, far below what a wallet should pay unasked. */
export const DEFAULT_MAX_FEE_STROOPS = 10_000_000n;

/** Why a prepared transaction was refused; each is a different thing to tell the user. */
export type PreparedRejection =
  | "malformed_transaction"
  | "network_mismatch"
  | "source_mismatch"
  | "unexpected_operations"
  | "contract_mismatch"
  | "function_mismatch"
  | "arguments_mismatch"
  | "unexpected_authorization"
  | "fee_too_high"
  | "validity_too_long"
  | "invalid_challenge"
  // A prepared payment (verifyPreparedPayment): another destination, asset, amount or memo than asked.
  | "destination_mismatch"
  | "asset_mismatch"
  | "amount_mismatch"
  | "memo_mismatch";

/** A prepared transaction that does not do what was asked. `status` is 0: the client refused, not the API. */
export class PreparedTransactionRejected extends NameregError {
  readonly reason: PreparedRejection;
  constructor(reason: PreparedRejection, detail: string) {
    super(0, { error: "prepared_transaction_rejected", reason, detail });
    this.name = "PreparedTransactionRejected";
    this.reason = reason;
  }
}

export interface VerifiedPrepared {
  readonly transaction: Transaction;
  readonly feeStroops: bigint;
}

function refuse(reason: PreparedRejection, detail: string): never {
  throw new PreparedTransactionRejected(reason, detail);
}

/**
 * Decodes a prepared transaction and checks it before anything is signed: the network it was prepared for (when
 * `prepared.network` is given, as every prepare answer carries it), the source, exactly one operation that calls
 * the expected contract's function with exactly the expected arguments, no authorisation beyond that call by the
 * source itself, the fee under the bound, and an upper time bound within maxValiditySeconds. Throws PreparedTransactionRejected; returns the decoded transaction.
 */
export function verifyPrepared(
  prepared: string | { readonly xdr: string; readonly network?: string },
  expected: PreparedExpectation,
): VerifiedPrepared {
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
    refuse("malformed_transaction", `not a transaction envelope: ${message(cause)}`);
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
  if (op.type !== "invokeHostFunction") refuse("unexpected_operations", `the operation is ${op.type}`);
  if (op.source !== undefined && op.source !== expected.source) {
    refuse("source_mismatch", `the operation acts for ${op.source}`);
  }
  const call = contractCallOf(op.func);
  if (call === null) refuse("unexpected_operations", "the operation does not call a contract function");
  if (call.contractId !== expected.contractId) {
    refuse("contract_mismatch", `it calls ${call.contractId}, not ${expected.contractId}`);
  }
  if (call.fn !== expected.function)
    refuse("function_mismatch", `it calls ${call.fn}, not ${expected.function}`);
  if (!sameArgs(call.args, expected.args)) {
    refuse("arguments_mismatch", `the arguments of ${call.fn} are not the ones asked for`);
  }
  checkAuth(op.auth ?? [], call, expected.source);

  const feeStroops = BigInt(tx.fee);
  const bound = BigInt(expected.maxFeeStroops ?? DEFAULT_MAX_FEE_STROOPS);
  if (feeStroops > bound) refuse("fee_too_high", `fee ${feeStroops} stroops is above the bound ${bound}`);
  checkValidity(tx, expected.maxValiditySeconds ?? DEFAULT_MAX_VALIDITY_SECONDS);
  return { transaction: tx, feeStroops };
}

/** The transaction's upper time bound is set and no later than `maxSeconds` from the wallet's clock. */
function checkValidity(tx: Transaction, maxSeconds: number): void {
  const maxTime = BigInt(tx.timeBounds?.maxTime ?? "0");
  if (maxTime === 0n)
    refuse("validity_too_long", "the transaction has no upper time bound: it never expires");
  const latest = BigInt(Math.floor(Date.now() / 1000) + maxSeconds);
  if (maxTime > latest) {
    refuse(
      "validity_too_long",
      `the transaction stays valid until ${maxTime}, more than ${maxSeconds} s from now`,
    );
  }
}

interface ContractCall {
  readonly contractId: string;
  readonly fn: string;
  readonly args: readonly xdr.ScVal[];
}

function contractCallOf(func: xdr.HostFunction): ContractCall | null {
  if (func.type !== "hostFunctionTypeInvokeContract") return null;
  const invoke = func.invokeContract;
  return {
    contractId: Address.fromScAddress(invoke.contractAddress).toString(),
    fn: invoke.functionName.toString(),
    args: invoke.args,
  };
}

/**
 * The call needs at most the source's own authorisation of that very call: one entry, with the source's
 * credentials (or the transaction's own), for exactly this invocation and nothing under it. Another account's
 * entry or a nested call (a token transfer, say) is more than was asked for.
 */
function checkAuth(
  entries: readonly xdr.SorobanAuthorizationEntry[],
  call: ContractCall,
  source: string,
): void {
  if (entries.length > 1) refuse("unexpected_authorization", `${entries.length} authorisation entries`);
  const [entry] = entries;
  if (entry === undefined) return;
  const credentials = entry.credentials;
  const signer =
    credentials.type === "sorobanCredentialsAddress"
      ? credentials.address.address
      : credentials.type === "sorobanCredentialsAddressV2"
        ? credentials.addressV2.address
        : null; // source-account credentials: the envelope's own signer, checked above to be `source`
  if (signer !== null && Address.fromScAddress(signer).toString() !== source) {
    refuse("unexpected_authorization", `an authorisation by ${Address.fromScAddress(signer).toString()}`);
  }
  const root = entry.rootInvocation;
  const fn = root.function;
  if (fn.type !== "sorobanAuthorizedFunctionTypeContractFn") {
    refuse("unexpected_authorization", "an authorisation to create a contract");
  }
  const authorised = fn.contractFn;
  if (
    Address.fromScAddress(authorised.contractAddress).toString() !== call.contractId ||
    authorised.functionName.toString() !== call.fn ||
    !sameArgs(authorised.args, call.args)
  ) {
    refuse("unexpected_authorization", "the authorisation is for another call than the operation's");
  }
  if (root.subInvocations.length > 0) {
    refuse("unexpected_authorization", "the authorisation covers calls beyond the one asked for");
  }
}

function sameArgs(a: readonly xdr.ScVal[], b: readonly xdr.ScVal[]): boolean {
  return a.length === b.length && a.every((v, i) => v.toXDR("base64") === b[i]?.toXDR("base64"));
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
