// The local chain: ledger state, the transaction queue, ledger closing, history within the retention
// window, and the host API the rest of the devnet (scenarios, benchmarks) uses.
import { Asset, hash, Keypair, StrKey, xdr } from "@stellar/stellar-sdk";
import type { Contract } from "../host/contract.ts";
import { accountKeyId, readAccount, STROOPS_PER_XLM } from "./accounts.ts";
import { applyQueue } from "./apply-ledger.ts";
import {
  type ChainOptions,
  DEFAULT_RETENTION_LEDGERS,
  STANDALONE_PASSPHRASE,
  type SubmitResult,
  type TransactionRecord,
} from "./chain-types.ts";
import {
  fundFromRoot,
  readContractData,
  runPrivileged,
  seedGenesisState,
  writeContractData,
} from "./direct-state.ts";
import { EventStore } from "./event-store.ts";
import { LedgerHistory } from "./history.ts";
import { type ClosedLedger, closeLedgerHeader } from "./ledger-close.ts";
import { type EntryRecord, LedgerState, ledgerKeyId } from "./ledger-state.ts";
import { contractDataKey, type Durability } from "./soroban/contract-data.ts";
import { deriveContractId, kindWasmHash, networkIdOf } from "./soroban/contract-ids.ts";
import type { Host, HostEnvironment } from "./soroban/host.ts";
import { KindRegistry } from "./soroban/kinds.ts";
import {
  type AuthMode,
  type SimulationFailure,
  type SimulationSuccess,
  simulateTransaction,
} from "./soroban/simulate.ts";
import { type SyntheticEvent, toStoredEvents } from "./synthetic-events.ts";
import { MalformedEnvelopeError, type ParsedTransaction, parseTransaction } from "./transactions/envelope.ts";
import { bidFee, minimumFee } from "./transactions/fees.ts";
import { failureResult } from "./transactions/results.ts";
import { validateTransaction } from "./transactions/validate.ts";

export {
  type ChainOptions,
  DEFAULT_RETENTION_LEDGERS,
  STANDALONE_PASSPHRASE,
  type SubmitResult,
  type SubmitStatus,
  type TransactionRecord,
} from "./chain-types.ts";
export { MalformedEnvelopeError };

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function saltBytes(salt: Uint8Array | string): Uint8Array {
  return typeof salt === "string" ? hash(new TextEncoder().encode(salt)) : salt;
}

export class Chain {
  readonly networkPassphrase: string;
  readonly networkId: Uint8Array;
  readonly nativeTokenId: string;
  /** The network root account (Keypair.master): holds the supply and funds friendbot requests. */
  readonly root: Keypair;
  readonly retentionLedgers: number;
  readonly genesisLedger: number;
  readonly state = new LedgerState();
  readonly kinds = new KindRegistry();
  readonly events = new EventStore();
  /** When set, ledgers stop closing (fault injection). */
  frozen = false;
  /** Shortened retention visible through the RPC (fault injection); undefined = the configured one. */
  visibleRetention: number | undefined;

  readonly #history: LedgerHistory;
  #queue: ParsedTransaction[] = [];
  readonly #pendingSources = new Map<string, string>();
  #injected: SyntheticEvent[] = [];
  #feePool = 0n;
  readonly #listeners = new Set<(ledger: ClosedLedger) => void>();

  constructor(opts: ChainOptions = {}) {
    this.networkPassphrase = opts.networkPassphrase ?? STANDALONE_PASSPHRASE;
    this.networkId = networkIdOf(this.networkPassphrase);
    this.nativeTokenId = Asset.native().contractId(this.networkPassphrase);
    this.root = Keypair.master(this.networkPassphrase);
    this.retentionLedgers = opts.retentionLedgers ?? DEFAULT_RETENTION_LEDGERS;
    this.genesisLedger = opts.genesisLedger ?? 1;
    const genesis = this.genesisLedger;
    seedGenesisState(this.state, this.root, this.nativeTokenId, genesis);
    const closeTime = Number(opts.genesisCloseTime ?? nowSeconds());
    this.#history = new LedgerHistory(
      closeLedgerHeader({ sequence: genesis, closeTime, previous: undefined, transactions: [], feePool: 0n }),
    );
    this.events.append(genesis, closeTime, []);
  }

  // ---- ledgers ----

  get latest(): ClosedLedger {
    return this.#history.latest;
  }

  /** The oldest ledger served, after the configured retention and any shortened (fault) retention. */
  get oldest(): ClosedLedger {
    const latest = this.latest.sequence;
    const window = Math.min(this.retentionLedgers, this.visibleRetention ?? Number.POSITIVE_INFINITY);
    const sequence = Math.max(this.#history.base, latest - Math.max(1, window) + 1);
    return this.ledger(sequence) as ClosedLedger;
  }

  ledger(sequence: number): ClosedLedger | undefined {
    return this.#history.ledger(sequence);
  }

  onLedgerClosed(listener: (ledger: ClosedLedger) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Closes the next ledger, applying the queued transactions in submission order. `closeTime` (unix s)
   * lets scenarios lay down history in the past; it must not go back before the latest close time.
   * While frozen nothing closes and the latest ledger is returned.
   */
  closeLedger(opts: { closeTime?: number | bigint } = {}): ClosedLedger {
    if (this.frozen) return this.latest;
    return this.#close(opts.closeTime, []);
  }

  /**
   * Closes a ledger holding `events` (plus anything queued), for benchmarks that need many events fast.
   * Topics and values may be pre-encoded base64 XDR.
   */
  appendSyntheticLedger(
    events: readonly SyntheticEvent[],
    opts: { closeTime?: number | bigint } = {},
  ): ClosedLedger {
    return this.#close(opts.closeTime, events);
  }

  #close(
    requestedCloseTime: number | bigint | undefined,
    extraEvents: readonly SyntheticEvent[],
  ): ClosedLedger {
    const previous = this.latest;
    const sequence = previous.sequence + 1;
    const closeTime =
      requestedCloseTime === undefined
        ? Math.max(previous.closeTime, nowSeconds())
        : Number(requestedCloseTime);
    if (!Number.isSafeInteger(closeTime) || closeTime < previous.closeTime) {
      throw new RangeError(
        `close time ${closeTime} is before the latest ledger's close time ${previous.closeTime}`,
      );
    }
    const env = this.hostEnvironment(sequence, BigInt(closeTime));
    const queue = this.#queue;
    this.#queue = [];
    this.#pendingSources.clear();
    const { records, stored, feePool } = applyQueue(
      queue,
      { state: this.state, sequence, closeTime, env, nativeTokenId: this.nativeTokenId },
      this.#feePool,
    );
    this.#feePool = feePool;
    const injected = this.#injected;
    this.#injected = [];
    stored.push(...toStoredEvents([...injected, ...extraEvents], records.length + 1));
    const ledger = closeLedgerHeader({
      sequence,
      closeTime,
      previous,
      transactions: records,
      feePool: this.#feePool,
    });
    this.#history.append(ledger, records);
    this.events.append(sequence, closeTime, stored);
    if (this.#history.prune(this.retentionLedgers)) this.events.prune(this.#history.base);
    for (const listener of this.#listeners) listener(ledger);
    return ledger;
  }

  // ---- transactions ----

  /** sendTransaction: envelope-level checks now, application at the next ledger close. */
  submit(envelopeXdr: string): SubmitResult {
    const tx = parseTransaction(envelopeXdr, this.networkPassphrase);
    if (this.#history.hasTransaction(tx.hash) || this.#queue.some((q) => q.hash === tx.hash)) {
      return { status: "DUPLICATE", hash: tx.hash };
    }
    // stellar-core queues one transaction per source account at a time.
    const pending = this.#pendingSources.get(tx.inner.source);
    if (pending !== undefined) return { status: "TRY_AGAIN_LATER", hash: tx.hash };
    const failure = validateTransaction(tx, {
      state: this.state,
      closeTime: BigInt(this.latest.closeTime),
      ledgerSeq: this.latest.sequence + 1,
    });
    if (failure !== undefined) {
      const fee = bidFee(tx) < minimumFee(tx) ? bidFee(tx) : minimumFee(tx);
      return { status: "ERROR", hash: tx.hash, errorResult: failureResult(tx, failure, fee) };
    }
    this.#queue.push(tx);
    this.#pendingSources.set(tx.inner.source, tx.hash);
    return { status: "PENDING", hash: tx.hash };
  }

  get pendingCount(): number {
    return this.#queue.length;
  }

  transaction(hashHex: string): TransactionRecord | undefined {
    const record = this.#history.transaction(hashHex.toLowerCase());
    if (record === undefined || record.ledger.sequence < this.oldest.sequence) return undefined;
    return record;
  }

  transactionsOf(ledger: ClosedLedger): TransactionRecord[] {
    return this.#history.transactionsOf(ledger);
  }

  simulate(envelope: xdr.TransactionEnvelope, authMode?: AuthMode): SimulationSuccess | SimulationFailure {
    const latest = this.latest;
    return simulateTransaction({
      envelope,
      state: this.state,
      env: this.hostEnvironment(latest.sequence + 1, BigInt(latest.closeTime)),
      authMode,
    });
  }

  hostEnvironment(ledgerSequence: number, timestamp: bigint): HostEnvironment {
    return {
      ledgerSequence,
      timestamp,
      networkPassphrase: this.networkPassphrase,
      networkId: this.networkId,
      kinds: this.kinds,
    };
  }

  // ---- ledger entries ----

  entry(key: xdr.LedgerKey): EntryRecord | undefined {
    return this.state.get(ledgerKeyId(key));
  }

  // ---- host API ----

  /** Registers a contract kind; returns its stand-in wasm hash. */
  registerKind(contract: Contract): Uint8Array {
    return this.kinds.register(contract);
  }

  wasmHashOf(kind: string): Uint8Array {
    return this.kinds.wasmHashOf(kind);
  }

  /**
   * Deploys a contract of `kind` outside any transaction, as part of the chain's starting state, and runs its
   * constructor with full authority. The id is `idOrSalt` when it is a C address, otherwise derived as Soroban
   * does from the root account and the salt (a string salt is hashed). Constructor events appear in the next
   * closed ledger.
   */
  deployGenesis(kind: string, idOrSalt: string | Uint8Array, args: readonly xdr.ScVal[] = []): string {
    if (this.kinds.get(kind) === undefined) throw new Error(`unknown contract kind ${kind}`);
    const contractId =
      typeof idOrSalt === "string" && StrKey.isValidContract(idOrSalt)
        ? idOrSalt
        : this.genesisContractId(idOrSalt);
    this.#privileged((host) => {
      host.createInstance(
        contractId,
        xdr.ContractExecutable.contractExecutableWasm(kindWasmHash(kind)),
        args,
      );
      return xdr.ScVal.scvVoid();
    });
    return contractId;
  }

  /** The id `deployGenesis` gives a salt, known in advance so contracts can name each other in constructors. */
  genesisContractId(salt: string | Uint8Array): string {
    return deriveContractId(this.networkId, this.root.publicKey(), saltBytes(salt));
  }

  /**
   * Invokes a contract outside any transaction with every address authorised (scenario set-up). State
   * changes apply at once; events appear in the next closed ledger. Throws HostError on failure.
   */
  invokePrivileged(contractId: string, fn: string, args: readonly xdr.ScVal[] = []): xdr.ScVal {
    return this.#privileged((host) => host.invoke(contractId, fn, args));
  }

  #privileged(run: (host: Host) => xdr.ScVal): xdr.ScVal {
    const latest = this.latest;
    const env = this.hostEnvironment(latest.sequence, BigInt(latest.closeTime));
    const { result, events } = runPrivileged(this.state, env, this.#injected.length, run);
    this.#injected.push(...events);
    return result;
  }

  readContractData(
    contractId: string,
    key: xdr.ScVal,
    durability: Durability = "persistent",
  ): xdr.ScVal | undefined {
    return readContractData(this.state, contractId, key, durability);
  }

  writeContractData(
    contractId: string,
    key: xdr.ScVal,
    value: xdr.ScVal,
    durability: Durability = "persistent",
  ): void {
    writeContractData(this.state, contractId, key, value, this.latest.sequence, durability);
  }

  removeContractData(contractId: string, key: xdr.ScVal, durability: Durability = "persistent"): void {
    this.state.remove(ledgerKeyId(contractDataKey(contractId, key, durability)));
  }

  /** Queues events to appear in the next closed ledger without a transaction. */
  injectEvents(events: readonly SyntheticEvent[]): void {
    this.#injected.push(...events);
  }

  /**
   * Credits `amount` stroops (default 10,000 XLM) from the root account, creating the account if needed,
   * directly in the current state (no transaction, no ledger close).
   */
  fund(accountId: string, amount: bigint = 10_000n * STROOPS_PER_XLM): void {
    fundFromRoot(this.state, this.root.publicKey(), accountId, amount, this.latest.sequence);
  }

  accountExists(accountId: string): boolean {
    return this.state.get(accountKeyId(accountId)) !== undefined;
  }

  balanceOf(accountId: string): bigint | undefined {
    return readAccount(this.state, accountId)?.balance;
  }
}
