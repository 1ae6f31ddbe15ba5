// The API's one way to the chain: live contract reads, prepared (unsigned) invocations for wallets, submission
// of what a wallet signed, and the latest ledger. Callers never reach past it to the RPC connection.
import type { ArgSpec, ArgValues, FnDef } from "@namereg/protocol";
import type { rpc } from "@stellar/stellar-sdk";
import { ContractReader, type ContractReads } from "./contract-reader.ts";
import { loadAccount, type PreparedTransaction, prepareInvocation } from "./prepare.ts";
import { type PaymentOrder, type PreparedPayment, preparePayment } from "./prepare-payment.ts";
import { type SubmitOptions, type SubmitOutcome, submitSigned } from "./submit.ts";

export class ChainClient implements ContractReads {
  readonly networkPassphrase: string;
  readonly #reader: ContractReader;
  readonly #server: rpc.Server;

  /** `timeoutMs`: the deadline of each RPC request (RPC_REQUEST_TIMEOUT_MS by default). */
  constructor(rpcUrl: string, networkPassphrase: string, opts: { timeoutMs?: number } = {}) {
    this.networkPassphrase = networkPassphrase;
    this.#reader = new ContractReader(rpcUrl, networkPassphrase, opts);
    this.#server = this.#reader.server;
  }

  /** A view call, simulated (ContractReader.read). */
  read<A extends ArgSpec, R>(contractId: string, fn: FnDef<A, R>, args: ArgValues<A>): Promise<R> {
    return this.#reader.read(contractId, fn, args);
  }

  /** `fn(args)` on `contractId`, built for `source` to sign (prepareInvocation). */
  prepare<A extends ArgSpec, R>(
    source: string,
    contractId: string,
    fn: FnDef<A, R>,
    args: ArgValues<A>,
  ): Promise<PreparedTransaction> {
    return prepareInvocation(this.#server, this.networkPassphrase, source, contractId, fn, args);
  }

  /** One native payment with a hash memo, built for its source to sign (preparePayment). */
  preparePayment(order: PaymentOrder): Promise<PreparedPayment> {
    return preparePayment(this.#server, this.networkPassphrase, order);
  }

  /**
   * Throws ApiError 400 invalid_account unless `source` exists on chain (503 chain_unavailable when it cannot be
   * read): the check `prepare` makes, for routes that must judge the source before anything else.
   */
  async requireAccount(source: string): Promise<void> {
    await loadAccount(this.#server, source);
  }

  /** Sends a signed transaction unless the chain already holds it, and polls for its result (submitSigned). */
  submit(signedXdr: string, opts?: SubmitOptions): Promise<SubmitOutcome> {
    return submitSigned(this.#server, this.networkPassphrase, signedXdr, opts);
  }

  /** The latest closed ledger as the RPC reports it. */
  head(): Promise<{ sequence: number; closeTime: string }> {
    return this.#server.getLatestLedger();
  }
}
