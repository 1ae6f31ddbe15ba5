// What the submit relays accept (POST /records/submit; the console's own check is stricter still): exactly the
// kinds of transaction this service prepares — one operation, either invoking an allowlisted function on a
// contract the service tracks in the role that function belongs to, or one native payment with a hash memo (whose
// destination, memo and amount the API judges against the intents, listings and namespaces it handed out) — and
// nothing larger than a prepared envelope can be. The relay is not a general-purpose gateway to the network: a
// payment elsewhere, a call to an unknown contract or a batch of operations is refused before anything is sent.
import { xlmToStroops } from "@namereg/protocol";
import {
  Address,
  FeeBumpTransaction,
  type Operation,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { ApiError } from "../errors.ts";

/** Base64 characters of the largest envelope accepted: prepared calls with footprint and auth stay far below. */
export const SUBMIT_XDR_MAX_CHARS = 16 * 1024;

export type ContractRole = "registry" | "registrar" | "resolver" | "allocator" | "primary" | "lookup";

/**
 * The function → role pairs the public relay accepts: what /records/prepare, /subnames/prepare, the buyer's
 * /v1/market/listings/{id}/accept/prepare and the claim routes (/console/register/announce/prepare,
 * /console/register/withdraw/prepare, /v1/claim-fee/credit/{address}/prepare) build.
 */
export const RELAYED_CALLS: Readonly<Record<string, ContractRole>> = {
  set_chain_address: "resolver",
  set_text: "resolver",
  set_payment: "resolver",
  set_display_name: "resolver",
  set_address: "registrar",
  set_primary: "primary",
  create_subname: "registrar",
  remove_subname: "registrar",
  accept_transfer: "registry",
  announce: "allocator",
  withdraw: "allocator",
  claim_fee_credit: "allocator",
};

export interface ContractCall {
  readonly kind: "call";
  readonly contractId: string;
  readonly fn: string;
  readonly args: readonly xdr.ScVal[];
}

/** A single `payment` operation, as the relays judge it. */
export interface PaymentCall {
  readonly kind: "payment";
  /** Who pays: the operation's source, else the transaction's. */
  readonly source: string;
  readonly destination: string;
  /** `native`, or `CODE:ISSUER` for anything else (never relayed). */
  readonly asset: string;
  /** Stroops. */
  readonly amount: bigint;
  /** The transaction's memo type (`none`, `text`, `id`, `hash`, `return`). */
  readonly memoType: string;
  /** A hash memo as 64 lower-case hex characters; null for any other memo. */
  readonly memoHash: string | null;
}

export type RelayedOperation = ContractCall | PaymentCall;

const refuse = (detail: string) => new ApiError("transaction_not_allowed", { detail });

/**
 * The one operation `signedXdr` carries; throws 413 payload_too_large for an oversized envelope, 400
 * invalid_request for text that is not an envelope of this network, 400 transaction_not_allowed for any other
 * shape (several operations, a classic operation other than a payment, a contract deployment).
 */
export function singleOperation(signedXdr: string, networkPassphrase: string): RelayedOperation {
  const text = signedXdr.trim();
  if (text.length > SUBMIT_XDR_MAX_CHARS) {
    throw new ApiError("payload_too_large", {
      detail: `signedXdr: is ${text.length} characters; a prepared transaction is at most ${SUBMIT_XDR_MAX_CHARS}`,
    });
  }
  let parsed: Transaction | FeeBumpTransaction;
  try {
    parsed = TransactionBuilder.fromXDR(text, networkPassphrase);
  } catch {
    throw new ApiError("invalid_request", { detail: "signedXdr: is not a base64 transaction envelope" });
  }
  const tx = parsed instanceof FeeBumpTransaction ? parsed.innerTransaction : parsed;
  if (tx.operations.length !== 1) {
    throw refuse(
      `signedXdr: has ${tx.operations.length} operations; this service relays exactly one contract call or payment`,
    );
  }
  const [op] = tx.operations;
  if (op?.type === "payment") return paymentCallOf(tx, op);
  if (op === undefined || op.type !== "invokeHostFunction") {
    throw refuse(
      `signedXdr: is a ${op?.type} operation; this service relays only the contract calls and payments it prepares`,
    );
  }
  const func = op.func;
  if (func.type !== "hostFunctionTypeInvokeContract") {
    throw refuse("signedXdr: does not invoke a contract function (deployments are not relayed)");
  }
  const { contractAddress, functionName, args } = func.invokeContract;
  return {
    kind: "call",
    contractId: Address.fromScAddress(contractAddress).toString(),
    fn: functionName.toString(),
    args,
  };
}

/** A payment operation of `tx` as the relays judge it: who pays whom, what, with which memo. */
export function paymentCallOf(tx: Transaction, op: Operation.Payment): PaymentCall {
  const memo = tx.memo;
  return {
    kind: "payment",
    source: op.source ?? tx.source,
    destination: op.destination,
    asset: op.asset.isNative() ? "native" : `${op.asset.getCode()}:${op.asset.getIssuer()}`,
    amount: xlmToStroops(op.amount),
    memoType: memo.type,
    memoHash:
      memo.type === "hash" && memo.value !== null ? Buffer.from(memo.value as Buffer).toString("hex") : null,
  };
}

/**
 * Checks the call against RELAYED_CALLS and the tracked role of its contract (`roleOf`: null for a contract
 * the service does not track, or no longer uses).
 */
export async function requireRelayable(
  call: ContractCall,
  roleOf: (contractId: string) => Promise<ContractRole | null>,
): Promise<void> {
  const expected = RELAYED_CALLS[call.fn];
  if (expected === undefined) {
    throw refuse(
      `signedXdr: calls ${call.fn}, which this service does not prepare (relayed: ${Object.keys(RELAYED_CALLS).join(", ")})`,
    );
  }
  const role = await roleOf(call.contractId);
  if (role === null)
    throw refuse(`signedXdr: calls ${call.contractId}, a contract this service does not track`);
  if (role !== expected) {
    throw refuse(
      `signedXdr: calls ${call.fn} on the ${role} ${call.contractId}; it belongs to a ${expected}`,
    );
  }
}
