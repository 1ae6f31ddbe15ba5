// The boundary between the devnet's chain core (ledger, transactions, RPC) and the contracts it runs.
// Contracts are plain TypeScript objects; all their state lives in contract storage as ScVal, so that
// getLedgerEntries can serve it as real ContractData entries and simulation can run on a throw-away overlay.
import type { xdr } from "@stellar/stellar-sdk";

/** A contract failure, surfaced on chain as `Error(Contract, #code)` (codes of docs/contracts.md "Errors"). */
export class ContractError extends Error {
  readonly code: number;
  constructor(code: number, message?: string) {
    super(message ?? `Error(Contract, #${code})`);
    this.name = "ContractError";
    this.code = code;
  }
}

/** Persistent contract data of the contract being invoked, keyed by ScVal (compared by XDR bytes). */
export interface ContractStorage {
  get(key: xdr.ScVal): xdr.ScVal | undefined;
  has(key: xdr.ScVal): boolean;
  set(key: xdr.ScVal, value: xdr.ScVal): void;
  remove(key: xdr.ScVal): void;
}

export interface InvocationContext {
  /** C... strkey of the contract being invoked. */
  readonly contractId: string;
  /** Sequence of the ledger the invocation runs in. */
  readonly ledgerSequence: number;
  /** Close time of that ledger, unix seconds. */
  readonly timestamp: bigint;
  readonly networkPassphrase: string;
  readonly storage: ContractStorage;
  /**
   * Requires authorisation of `address` (G or C strkey) for this invocation, as Soroban's `require_auth`.
   * Enforcing mode: succeeds for the transaction's source account (source-account credentials), for a valid
   * signed address-credential auth entry, or for the directly calling contract; otherwise throws the host's
   * auth error. Recording mode (simulation): records the auth entry and succeeds.
   */
  requireAuth(address: string): void;
  /** Emits a contract event from this contract (kept only if the whole invocation succeeds). */
  emit(topics: xdr.ScVal[], data: xdr.ScVal): void;
  /** Calls another contract; inside it, `requireAuth(<this contract's id>)` succeeds. */
  call(contractId: string, fn: string, args: xdr.ScVal[]): xdr.ScVal;
  /**
   * Deploys a new instance of a registered contract kind from this contract (its id derives from this
   * contract's address and `salt`, as Soroban's deployer does) and runs its `__constructor` with `args`.
   */
  deploy(kind: string, salt: Uint8Array, args: xdr.ScVal[]): string;
  /** Replaces the executable (wasm hash) of a deployed contract instance; used by the upgrade functions. */
  setExecutable(contractId: string, wasmHash: Uint8Array): void;
  /** The deployment kind of a contract id, or undefined when no such contract exists. */
  kindOf(contractId: string): string | undefined;
}

/** A contract implementation: one object per kind, stateless; each call gets its context. */
export interface Contract {
  readonly kind: string;
  /** Throws ContractError for contract failures; any other throw is a host error (trap). */
  invoke(ctx: InvocationContext, fn: string, args: xdr.ScVal[]): xdr.ScVal;
}
