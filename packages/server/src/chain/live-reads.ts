// Live contract reads for routes (docs/design.md "Data flow" 5): one place that turns a failed read into the API's
// answer. A contract error with a number docs/contracts.md "Errors" maps to an HTTP code becomes that code; any other contract
// failure and an unreachable chain become the route's chosen failure code (e.g. 502 node_lookup_failed for
// records, 503 chain_unavailable elsewhere). A failed read is never replaced by a substitute value.
import {
  type ArgSpec,
  type ArgValues,
  CONTRACT_ERROR_CODES,
  type ErrorCode,
  type FnDef,
} from "@namereg/protocol";
import { ApiError } from "../errors.ts";
import { ChainUnavailableError, ContractCallError, type ContractReads } from "./contract-reader.ts";

export interface LiveReadOptions {
  /** Code for an unreachable chain or a contract failure without a mapped code. */
  failure: Extract<ErrorCode, "node_lookup_failed" | "chain_unavailable">;
  /** Route-specific meaning of a contract error number (checked before the table of docs/contracts.md "Errors"). */
  contractError?: (code: number | null) => ApiError | undefined;
}

export async function liveRead<A extends ArgSpec, R>(
  reader: ContractReads | undefined,
  contractId: string,
  fn: FnDef<A, R>,
  args: ArgValues<A>,
  opts: LiveReadOptions,
): Promise<R> {
  if (reader === undefined) throw new ApiError(opts.failure);
  try {
    return await reader.read(contractId, fn, args);
  } catch (err) {
    if (err instanceof ContractCallError) {
      const specific = opts.contractError?.(err.code);
      if (specific !== undefined) throw specific;
      const mapped = err.code === null ? null : (CONTRACT_ERROR_CODES[err.code] ?? null);
      throw new ApiError(mapped ?? opts.failure);
    }
    if (err instanceof ChainUnavailableError) throw new ApiError(opts.failure);
    throw err;
  }
}
