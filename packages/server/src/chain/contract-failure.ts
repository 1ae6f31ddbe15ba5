// Which contract raised a contract error. Error numbers are per contract: #10 is "invalid chain address" in the
// naming contracts but "insufficient balance" in the native asset's token contract, so a failure must be judged
// by the contract that raised it, not by its number alone. The host logs an `error` diagnostic event in every
// frame the error unwinds through, innermost first; the first one names the contract where it started. Both the
// devnet and stellar-rpc return these events with a failed simulation.
import { CONTRACT_ERROR_CODES, type ErrorCode } from "@namereg/protocol";
import { Asset, StrKey, type xdr } from "@stellar/stellar-sdk";

export interface ContractFailureOrigin {
  readonly contractId: string;
  readonly code: number;
}

export function originOfContractError(events: readonly xdr.DiagnosticEvent[]): ContractFailureOrigin | null {
  for (const diagnostic of events) {
    const { event } = diagnostic;
    if (event.contractId === null || event.body.type !== "v0") continue;
    const [first, second] = event.body.v0.topics;
    if (first?.type !== "scvSymbol" || first.sym.toString() !== "error") continue;
    if (second?.type !== "scvError" || second.error.type !== "sceContract") continue;
    return {
      contractId: StrKey.encodeContract(Buffer.from(event.contractId.value)),
      code: second.error.contractCode,
    };
  }
  return null;
}

/** The Stellar Asset Contract's "balance" error (soroban-env-host's builtin token ContractError). */
export const NATIVE_TOKEN_BALANCE = 10;

/**
 * The spec code of a contract error judged by the contract that raised it: the native token's insufficient
 * balance is `insufficient_balance`, its other errors have none; the naming contracts' numbers map through
 * the table of docs/contracts.md "Errors". An origin of unknown contract (null) is read as a naming contract's.
 */
export function specCodeOf(
  origin: { readonly contractId: string | null; readonly code: number },
  networkPassphrase: string,
): ErrorCode | null {
  if (origin.contractId !== null && origin.contractId === Asset.native().contractId(networkPassphrase)) {
    return origin.code === NATIVE_TOKEN_BALANCE ? "insufficient_balance" : null;
  }
  return CONTRACT_ERROR_CODES[origin.code] ?? null;
}
