// Which contract raised a contract error. Error numbers are per contract: #10 is "invalid chain address" in the
// naming contracts but "insufficient balance" in the native asset's token contract, so a failure must be judged
// by the contract that raised it, not by its number alone. The host logs an `error` diagnostic event in every
// frame the error unwinds through, innermost first; the first one names the contract where it started. Both the
// devnet and stellar-rpc return these events with a failed simulation.
import { StrKey, type xdr } from "@stellar/stellar-sdk";

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
