// Turns the claim-fee reads' failures into spec answers: no honest quote → 503 claim_fee_unavailable (with the
// reason), an unreachable chain or a failed read → 503 chain_unavailable. Never a substitute value.
import type { ChainClient } from "../../../chain/chain-client.ts";
import { ClaimFeeUnavailableError } from "../../../chain/claim-fee.ts";
import { ChainUnavailableError, ContractCallError } from "../../../chain/contract-reader.ts";
import { ApiError } from "../../errors.ts";

export async function claimFeeRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ClaimFeeUnavailableError) {
      throw new ApiError("claim_fee_unavailable", { reason: err.reason, detail: err.message });
    }
    if (err instanceof ChainUnavailableError || err instanceof ContractCallError) {
      throw new ApiError("chain_unavailable", { detail: "the allocator could not be read" });
    }
    throw err;
  }
}

/** The chain client and the allocator, or 503 chain_unavailable when either is not configured. */
export function allocatorChain(
  chainClient: ChainClient | undefined,
  allocatorId: string | null,
): { reader: ChainClient; allocatorId: string } {
  if (chainClient === undefined || allocatorId === null) {
    throw new ApiError("chain_unavailable", { detail: "no allocator is configured" });
  }
  return { reader: chainClient, allocatorId };
}
