// Live contract reads: a view call simulated through the RPC (nothing is submitted). The source account of
// a simulation need not exist on chain, so a fixed throw-away key is used. A contract error and an
// unreachable chain are different failures, and callers map them to different HTTP answers.
import { type ArgSpec, type ArgValues, contractErrorNumber, type FnDef } from "@namereg/protocol";
import { Account, Operation, rpc, TransactionBuilder } from "@stellar/stellar-sdk";
import { rpcServer } from "./rpc-server.ts";

/** The contract answered with `Error(Contract, #code)` (or another host error: code null). */
export class ContractCallError extends Error {
  readonly code: number | null;
  constructor(message: string) {
    super(message);
    this.name = "ContractCallError";
    this.code = contractErrorNumber(message);
  }
}

/** The chain could not be asked (network, RPC failure, undecodable answer). */
export class ChainUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ChainUnavailableError";
  }
}

// A fixed, unfunded account: simulation only needs a well-formed source.
const READ_SOURCE = "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7";

/** What live reads need: the one method of ContractReader (and of ChainClient, which wraps one). */
export interface ContractReads {
  read<A extends ArgSpec, R>(contractId: string, fn: FnDef<A, R>, args: ArgValues<A>): Promise<R>;
}

export class ContractReader implements ContractReads {
  readonly server: rpc.Server;
  readonly networkPassphrase: string;

  constructor(rpcUrl: string, networkPassphrase: string, opts: { timeoutMs?: number } = {}) {
    this.server = rpcServer(rpcUrl, opts.timeoutMs);
    this.networkPassphrase = networkPassphrase;
  }

  async read<A extends ArgSpec, R>(contractId: string, fn: FnDef<A, R>, args: ArgValues<A>): Promise<R> {
    const tx = new TransactionBuilder(new Account(READ_SOURCE, "0"), {
      fee: "100",
      networkPassphrase: this.networkPassphrase,
    })
      .addOperation(
        Operation.invokeContractFunction({
          contract: contractId,
          function: fn.name,
          args: fn.encodeArgs(args),
        }),
      )
      .setTimeout(0)
      .build();
    let sim: rpc.Api.SimulateTransactionResponse;
    try {
      sim = await this.server.simulateTransaction(tx);
    } catch (err) {
      throw new ChainUnavailableError(`simulating ${fn.name} failed`, { cause: err });
    }
    if (rpc.Api.isSimulationError(sim)) throw new ContractCallError(sim.error);
    if (!rpc.Api.isSimulationSuccess(sim) || sim.result === undefined) {
      throw new ChainUnavailableError(`simulating ${fn.name} returned no result`);
    }
    try {
      return fn.returns.decode(sim.result.retval);
    } catch (err) {
      throw new ChainUnavailableError(`${fn.name} returned an unexpected layout`, { cause: err });
    }
  }
}
