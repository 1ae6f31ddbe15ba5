// What the submit relays accept (POST /records/submit; the console's own check is stricter still): exactly the
// kinds of transaction this service prepares — one operation, invoking an allowlisted function on a contract the
// service tracks in the role that function belongs to — and nothing larger than a prepared envelope can be. The
// relay is not a general-purpose gateway to the network: a payment, a call to an unknown contract or a batch of
// operations is refused before anything is sent.
import { Address, FeeBumpTransaction, type Transaction, TransactionBuilder } from "@stellar/stellar-sdk";
import { ApiError } from "../errors.ts";

/** Base64 characters of the largest envelope accepted: prepared calls with footprint and auth stay far below. */
export const SUBMIT_XDR_MAX_CHARS = 16 * 1024;

export type ContractRole = "registry" | "registrar" | "resolver" | "allocator" | "primary" | "lookup";

/** The function → role pairs the public relay accepts: what /records/prepare, /subnames/prepare and the claim
 * routes (/console/register/announce/prepare, /v1/claim-fee/credit/{address}/prepare) build. */
export const RELAYED_CALLS: Readonly<Record<string, ContractRole>> = {
  set_chain_address: "resolver",
  create_subname: "registrar",
  remove_subname: "registrar",
  announce: "allocator",
  claim_fee_credit: "allocator",
};

export interface ContractCall {
  readonly contractId: string;
  readonly fn: string;
}

const refuse = (detail: string) => new ApiError("transaction_not_allowed", { detail });

/**
 * The one contract call `signedXdr` makes; throws 413 payload_too_large for an oversized envelope, 400
 * invalid_request for text that is not an envelope of this network, 400 transaction_not_allowed for any other
 * shape (several operations, a classic operation, a contract deployment).
 */
export function singleContractCall(signedXdr: string, networkPassphrase: string): ContractCall {
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
      `signedXdr: has ${tx.operations.length} operations; this service relays exactly one contract call`,
    );
  }
  const [op] = tx.operations;
  if (op === undefined || op.type !== "invokeHostFunction") {
    throw refuse(
      `signedXdr: is a ${op?.type} operation; this service relays only the contract calls it prepares`,
    );
  }
  const func = op.func;
  if (func.type !== "hostFunctionTypeInvokeContract") {
    throw refuse("signedXdr: does not invoke a contract function (deployments are not relayed)");
  }
  const { contractAddress, functionName } = func.invokeContract;
  return { contractId: Address.fromScAddress(contractAddress).toString(), fn: functionName.toString() };
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
