// The allocator's claim-fee policy read straight from the chain, never from the service: the whole point of the
// client-side check (docs/claims.md, step 3) is that a compromised or stale mirror cannot talk a wallet into paying.
import { AllocatorFns, type FeePolicy as ProtocolFeePolicy } from "@namereg/protocol";
import { Account, Operation, rpc, TransactionBuilder } from "@stellar/stellar-sdk";
import { NameregError } from "./api.ts";

/** The allocator's claim fee: `amount` base units of the `token` contract, paid to `recipient`. */
export interface FeePolicy {
  readonly token: string;
  readonly amount: bigint;
  readonly recipient: string;
}
// Written out because the published declarations cannot name @namereg/protocol (compiled in, not published); this
// line fails to compile if the two ever differ.
const _sameAsProtocol: [FeePolicy, ProtocolFeePolicy] = [{} as ProtocolFeePolicy, {} as FeePolicy];
void _sameAsProtocol;

// Simulation needs a well-formed source account, not a funded one.
const READ_SOURCE = "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7";

/**
 * The current fee policy, or null when the allocator has none. Throws NameregError `chain_unavailable` (503) when
 * the chain cannot be asked or the call fails there.
 */
export async function readFeePolicy(
  server: rpc.Server,
  networkPassphrase: string,
  allocatorId: string,
): Promise<FeePolicy | null> {
  const tx = new TransactionBuilder(new Account(READ_SOURCE, "0"), { fee: "100", networkPassphrase })
    .addOperation(
      Operation.invokeContractFunction({
        contract: allocatorId,
        function: AllocatorFns.fee_policy.name,
        args: AllocatorFns.fee_policy.encodeArgs({}),
      }),
    )
    .setTimeout(0)
    .build();
  let sim: rpc.Api.SimulateTransactionResponse;
  try {
    sim = await server.simulateTransaction(tx);
  } catch (cause) {
    throw unavailable(
      `fee_policy could not be asked: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    );
  }
  if (rpc.Api.isSimulationError(sim)) throw unavailable(`fee_policy failed on chain: ${sim.error}`);
  if (!rpc.Api.isSimulationSuccess(sim) || sim.result === undefined) {
    throw unavailable("fee_policy returned no result");
  }
  return AllocatorFns.fee_policy.returns.decode(sim.result.retval);
}

/** The client's typed error for a chain that cannot answer, as resolveVerified gives it. */
function unavailable(detail: string, cause?: unknown): NameregError {
  const error = new NameregError(503, { error: "chain_unavailable", detail });
  return cause === undefined ? error : Object.assign(error, { cause });
}
