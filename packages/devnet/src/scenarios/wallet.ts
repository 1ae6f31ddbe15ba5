// A wallet made of nothing but the public SDK: it builds a contract call, lets the RPC simulate and assemble
// it (`prepareTransaction`), signs it with the holder's key and submits it, as any Stellar wallet would. The
// demo scenario and the integration tests use it, so they exercise the same path real users take.
import type { ArgSpec, ArgValues, FnDef } from "@namereg/protocol";
import { type Keypair, Operation, rpc, TransactionBuilder, xdr } from "@stellar/stellar-sdk";

export interface WalletOptions {
  rpcUrl: string;
  networkPassphrase: string;
  /** Called after each submission; an on-demand devnet closes a ledger here, a real network just waits. */
  settle?: () => Promise<void>;
  /** Poll attempts for getTransaction (each after `settle` or a short sleep). */
  attempts?: number;
}

export class TransactionFailedError extends Error {
  readonly hash: string;
  readonly status: string;
  readonly detail: unknown;
  constructor(hash: string, status: string, detail: unknown) {
    super(`transaction ${hash} ${status}`);
    this.name = "TransactionFailedError";
    this.hash = hash;
    this.status = status;
    this.detail = detail;
  }
}

export class SimulationFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SimulationFailedError";
  }
}

export interface Submitted<R> {
  hash: string;
  ledger: number;
  value: R;
}

export class Wallet {
  readonly server: rpc.Server;
  readonly networkPassphrase: string;
  private readonly settle: () => Promise<void>;
  private readonly attempts: number;

  constructor(opts: WalletOptions) {
    this.server = new rpc.Server(opts.rpcUrl, { allowHttp: true });
    this.networkPassphrase = opts.networkPassphrase;
    this.settle = opts.settle ?? (() => new Promise((r) => setTimeout(r, 500)));
    this.attempts = opts.attempts ?? 30;
  }

  private async build(source: string, op: xdr.Operation) {
    const account = await this.server.getAccount(source);
    return new TransactionBuilder(account, { fee: "100", networkPassphrase: this.networkPassphrase })
      .addOperation(op)
      .setTimeout(300)
      .build();
  }

  /** Simulates a read-only call and decodes its return value. */
  async read<A extends ArgSpec, R>(
    source: string,
    contractId: string,
    fn: FnDef<A, R>,
    args: ArgValues<A>,
  ): Promise<R> {
    const tx = await this.build(
      source,
      Operation.invokeContractFunction({
        contract: contractId,
        function: fn.name,
        args: fn.encodeArgs(args),
      }),
    );
    const sim = await this.server.simulateTransaction(tx);
    if (!rpc.Api.isSimulationSuccess(sim) || sim.result === undefined) {
      throw new SimulationFailedError(
        rpc.Api.isSimulationError(sim) ? sim.error : "simulation returned no result",
      );
    }
    return fn.returns.decode(sim.result.retval);
  }

  /** Calls a contract function signed by `signer` (the transaction source) and waits for the result. */
  async invoke<A extends ArgSpec, R>(
    signer: Keypair,
    contractId: string,
    fn: FnDef<A, R>,
    args: ArgValues<A>,
  ): Promise<Submitted<R>> {
    const tx = await this.build(
      signer.publicKey(),
      Operation.invokeContractFunction({
        contract: contractId,
        function: fn.name,
        args: fn.encodeArgs(args),
      }),
    );
    let prepared: Awaited<ReturnType<rpc.Server["prepareTransaction"]>>;
    try {
      prepared = await this.server.prepareTransaction(tx);
    } catch (err) {
      throw new SimulationFailedError(err instanceof Error ? err.message : String(err));
    }
    prepared.sign(signer);
    const result = await this.submit(prepared.toXDR());
    const value = fn.returns.decode(result.returnValue ?? xdr.ScVal.scvVoid());
    return { hash: result.hash, ledger: result.ledger, value };
  }

  /** Sends a classic operation (payment, create account) signed by `signer`. */
  async classic(signer: Keypair, op: xdr.Operation, memo?: Parameters<TransactionBuilder["addMemo"]>[0]) {
    const account = await this.server.getAccount(signer.publicKey());
    const builder = new TransactionBuilder(account, { fee: "100", networkPassphrase: this.networkPassphrase })
      .addOperation(op)
      .setTimeout(300);
    if (memo !== undefined) builder.addMemo(memo);
    const tx = builder.build();
    tx.sign(signer);
    return this.submit(tx.toXDR());
  }

  /** Submits signed XDR and polls until the transaction is final. */
  async submit(signedXdr: string): Promise<{ hash: string; ledger: number; returnValue?: xdr.ScVal }> {
    const tx = TransactionBuilder.fromXDR(signedXdr, this.networkPassphrase);
    const sent = await this.server.sendTransaction(tx);
    if (sent.status !== "PENDING" && sent.status !== "DUPLICATE") {
      throw new TransactionFailedError(sent.hash, sent.status, resultCode(sent.errorResult));
    }
    for (let i = 0; i < this.attempts; i++) {
      await this.settle();
      const got = await this.server.getTransaction(sent.hash);
      if (got.status === rpc.Api.GetTransactionStatus.SUCCESS) {
        return { hash: sent.hash, ledger: got.ledger, returnValue: got.returnValue };
      }
      if (got.status === rpc.Api.GetTransactionStatus.FAILED) {
        throw new TransactionFailedError(sent.hash, got.status, resultCode(got.resultXdr));
      }
    }
    throw new TransactionFailedError(sent.hash, "TIMEOUT", null);
  }
}

/** The result code name of a transaction result, e.g. `txFailed` (for error messages and tests). */
export function resultCode(result: xdr.TransactionResult | undefined): string | null {
  return result === undefined ? null : result.result.type;
}

/**
 * A wallet for scenarios run against an on-demand devnet (closeIntervalMs 0): each submission closes the ledger
 * that includes it, so a scenario never waits for the clock.
 */
export function settlingWallet(devnet: {
  rpcUrl: string;
  networkPassphrase: string;
  closeLedger(): unknown;
}): Wallet {
  return new Wallet({
    rpcUrl: devnet.rpcUrl,
    networkPassphrase: devnet.networkPassphrase,
    settle: async () => void devnet.closeLedger(),
  });
}
