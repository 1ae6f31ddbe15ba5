// The invocation engine: a call stack of contract frames, each over its own state overlay and event
// buffer, so a failed call leaves nothing behind; contexts handed to contracts per frame.
import { StrKey, xdr } from "@stellar/stellar-sdk";
import { type Contract, ContractError, type InvocationContext } from "../../host/contract.ts";
import { type EntryRecord, ledgerKeyId, StateOverlay, type StateStore } from "../ledger-state.ts";
import type { AuthFrame, AuthHost, AuthPolicy } from "./auth.ts";
import { executableOf, instanceKey, instanceRecord } from "./contract-data.ts";
import { deriveContractId, kindWasmHash } from "./contract-ids.ts";
import type { Footprint } from "./footprint.ts";
import { contractStorage, isScVal, nativeBalances } from "./host-context.ts";
import { contractFailure, HostError, hostFailure } from "./host-error.ts";
import type { KindRegistry } from "./kinds.ts";
import { type NativeTokenContext, nativeToken } from "./native-token.ts";
import { symbol } from "./scval.ts";

export interface HostEnvironment {
  readonly ledgerSequence: number;
  readonly timestamp: bigint;
  readonly networkPassphrase: string;
  readonly networkId: Uint8Array;
  readonly kinds: KindRegistry;
}

/** Resource use the host counts; the instruction figures are a deterministic model, not wasm metering. */
export interface Metering {
  instructions: number;
  diskReadBytes: number;
  writeBytes: number;
  eventsBytes: number;
}

const CALL_INSTRUCTIONS = 250_000;
const READ_INSTRUCTIONS = 30_000;
const WRITE_INSTRUCTIONS = 50_000;
const EVENT_INSTRUCTIONS = 20_000;
const INSTRUCTIONS_PER_BYTE = 8;
const MAX_CALL_DEPTH = 100;
const MAX_TOPICS = 4;

interface Frame extends AuthFrame {
  readonly state: StateOverlay;
  readonly events: xdr.ContractEvent[];
}

/** An event in emission order with whether it survived (for simulation's diagnostic events). */
export interface EmittedEvent {
  readonly event: xdr.ContractEvent;
  readonly kind: "contract" | "diagnostic";
}

function contractIdBytes(contractId: string): Uint8Array {
  return StrKey.decodeContract(contractId);
}

export function toHostError(error: unknown): HostError {
  if (error instanceof HostError) return error;
  if (error instanceof ContractError) return contractFailure(error.code, error.message);
  const message = error instanceof Error ? error.message : String(error);
  return hostFailure("WasmVm", "scecInvalidAction", message);
}

export class Host implements AuthHost {
  readonly #env: HostEnvironment;
  readonly #root: StateStore;
  readonly #auth: AuthPolicy;
  readonly #footprint: Footprint;
  readonly #stack: Frame[] = [];
  readonly #rootEvents: xdr.ContractEvent[] = [];
  readonly #log: EmittedEvent[] = [];
  readonly metering: Metering = { instructions: 0, diskReadBytes: 0, writeBytes: 0, eventsBytes: 0 };

  constructor(env: HostEnvironment, state: StateStore, auth: AuthPolicy, footprint: Footprint) {
    this.#env = env;
    this.#root = state;
    this.#auth = auth;
    this.#footprint = footprint;
  }

  get ledgerSequence(): number {
    return this.#env.ledgerSequence;
  }

  get networkId(): Uint8Array {
    return this.#env.networkId;
  }

  /** Contract events of the calls that completed, in order. */
  get events(): readonly xdr.ContractEvent[] {
    return this.#rootEvents;
  }

  /** Every event in emission order, including call traces and events of failed calls. */
  get log(): readonly EmittedEvent[] {
    return this.#log;
  }

  meter(instructions: number): void {
    this.metering.instructions += instructions;
  }

  #state(): StateStore {
    return this.#stack[this.#stack.length - 1]?.state ?? this.#root;
  }

  readEntry(id: string, key: xdr.LedgerKey): EntryRecord | undefined {
    this.#footprint.read(id, key);
    const record = this.#state().get(id);
    const size = record === undefined ? 0 : record.data.toXdr().length;
    this.meter(READ_INSTRUCTIONS + size * INSTRUCTIONS_PER_BYTE);
    if (record !== undefined && record.data.type === "account") this.metering.diskReadBytes += size;
    return record;
  }

  writeEntry(id: string, record: EntryRecord): void {
    this.#footprint.write(id, record.key);
    const size = record.data.toXdr().length;
    this.meter(WRITE_INSTRUCTIONS + size * INSTRUCTIONS_PER_BYTE);
    this.metering.writeBytes += size;
    this.#state().put(id, record);
  }

  removeEntry(id: string, key: xdr.LedgerKey): void {
    this.#footprint.write(id, key);
    this.meter(WRITE_INSTRUCTIONS);
    this.#state().remove(id);
  }

  /** Runs a root invocation (a transaction's host function); throws HostError on failure. */
  invoke(contractId: string, fn: string, args: readonly xdr.ScVal[]): xdr.ScVal {
    try {
      return this.#call(contractId, fn, [...args]);
    } catch (error) {
      throw toHostError(error);
    }
  }

  /** Deploys an instance of `kind` as `deployer` would (id from deployer and salt) and runs its constructor. */
  deploy(deployer: string, kind: string, salt: Uint8Array, args: readonly xdr.ScVal[]): string {
    if (this.#env.kinds.get(kind) === undefined) {
      throw hostFailure("Storage", "scecMissingValue", `no contract kind ${kind} is registered`);
    }
    const contractId = deriveContractId(this.#env.networkId, deployer, salt);
    this.createInstance(contractId, xdr.ContractExecutable.contractExecutableWasm(kindWasmHash(kind)), args);
    return contractId;
  }

  /** Creates the instance entry of `contractId` and runs `__constructor`. */
  createInstance(contractId: string, executable: xdr.ContractExecutable, args: readonly xdr.ScVal[]): void {
    const key = instanceKey(contractId);
    const id = ledgerKeyId(key);
    if (this.readEntry(id, key) !== undefined) {
      throw hostFailure("Storage", "scecExistingValue", `contract ${contractId} already exists`);
    }
    if (
      executable.type === "contractExecutableWasm" &&
      this.#env.kinds.kindOfHash(executable.wasmHash.value) === undefined
    ) {
      throw hostFailure("Storage", "scecMissingValue", "Wasm does not exist");
    }
    this.writeEntry(id, instanceRecord(contractId, executable, this.#env.ledgerSequence));
    if (executable.type !== "contractExecutableWasm") return;
    try {
      this.#call(contractId, "__constructor", [...args]);
    } catch (error) {
      // A kind without a constructor traps on the unknown function; with no arguments that is no error.
      const hostError = toHostError(error);
      if (args.length > 0 || hostError.error.type !== "sceWasmVm") throw error;
    }
  }

  setExecutable(contractId: string, wasmHash: Uint8Array): void {
    if (this.#env.kinds.kindOfHash(wasmHash) === undefined) {
      throw hostFailure("Storage", "scecMissingValue", "Wasm does not exist");
    }
    const key = instanceKey(contractId);
    const id = ledgerKeyId(key);
    const current = executableOf(this.readEntry(id, key));
    if (current === undefined || current.type !== "contractExecutableWasm") {
      throw hostFailure("Storage", "scecMissingValue", `contract ${contractId} has no wasm executable`);
    }
    this.writeEntry(
      id,
      instanceRecord(
        contractId,
        xdr.ContractExecutable.contractExecutableWasm(wasmHash),
        this.#env.ledgerSequence,
      ),
    );
  }

  kindOf(contractId: string): string | undefined {
    if (!StrKey.isValidContract(contractId)) return undefined;
    const key = instanceKey(contractId);
    const executable = executableOf(this.readEntry(ledgerKeyId(key), key));
    if (executable === undefined) return undefined;
    if (executable.type === "contractExecutableStellarAsset") return nativeToken.kind;
    if (executable.type === "contractExecutableWasm")
      return this.#env.kinds.kindOfHash(executable.wasmHash.value);
    return undefined;
  }

  #resolve(contractId: string): Contract {
    const key = instanceKey(contractId);
    const executable = executableOf(this.readEntry(ledgerKeyId(key), key));
    if (executable === undefined) {
      throw hostFailure(
        "Storage",
        "scecMissingValue",
        `trying to get non-existing value for contract instance ${contractId}`,
      );
    }
    if (executable.type === "contractExecutableStellarAsset") return nativeToken;
    if (executable.type === "contractExecutableWasm") {
      const kind = this.#env.kinds.kindOfHash(executable.wasmHash.value);
      const contract = kind === undefined ? undefined : this.#env.kinds.get(kind);
      if (contract !== undefined) return contract;
    }
    throw hostFailure("Storage", "scecMissingValue", "Wasm does not exist");
  }

  #call(contractId: string, fn: string, args: xdr.ScVal[]): xdr.ScVal {
    if (this.#stack.length >= MAX_CALL_DEPTH) {
      throw hostFailure("Context", "scecExceededLimit", "exceeded the maximum contract call depth");
    }
    if (!StrKey.isValidContract(contractId)) {
      throw hostFailure("Value", "scecInvalidInput", `not a contract address: ${contractId}`);
    }
    const parentEvents = this.#stack[this.#stack.length - 1]?.events ?? this.#rootEvents;
    const frame: Frame = {
      contractId,
      fn,
      args,
      recorded: new Map(),
      state: new StateOverlay(this.#state()),
      events: [],
    };
    this.#trace(
      this.#stack[this.#stack.length - 1]?.contractId,
      [symbol("fn_call"), xdr.ScVal.scvBytes(contractIdBytes(contractId)), symbol(fn)],
      xdr.ScVal.scvVec(args),
    );
    this.#stack.push(frame);
    this.meter(CALL_INSTRUCTIONS);
    let result: unknown;
    try {
      const contract = this.#resolve(contractId);
      result = contract.invoke(this.#context(frame, contract), fn, args);
      if (!isScVal(result)) throw hostFailure("Value", "scecUnexpectedType", `${fn} did not return an ScVal`);
    } catch (error) {
      this.#stack.pop();
      const hostError = toHostError(error);
      this.#trace(
        contractId,
        [symbol("error"), xdr.ScVal.scvError(hostError.error)],
        xdr.ScVal.scvString(hostError.message),
      );
      // Inside a calling contract a contract failure stays catchable as a ContractError.
      if (this.#stack.length > 0 && hostError.error.type === "sceContract") {
        throw new ContractError(hostError.error.contractCode, hostError.message);
      }
      throw hostError;
    }
    this.#stack.pop();
    frame.state.commit();
    parentEvents.push(...frame.events);
    this.#trace(contractId, [symbol("fn_return"), symbol(fn)], result);
    return result;
  }

  #trace(contractId: string | undefined, topics: xdr.ScVal[], data: xdr.ScVal): void {
    this.#log.push({
      kind: "diagnostic",
      event: new xdr.ContractEvent({
        ext: xdr.ExtensionPoint.v0(),
        contractId: contractId === undefined ? null : new xdr.ContractId(contractIdBytes(contractId)),
        type: xdr.ContractEventType.diagnostic,
        body: xdr.ContractEventBody.v0(new xdr.ContractEventV0({ topics, data })),
      }),
    });
  }

  #emit(frame: Frame, topics: xdr.ScVal[], data: xdr.ScVal): void {
    if (topics.length > MAX_TOPICS) throw hostFailure("Events", "scecExceededLimit", "too many event topics");
    if (!topics.every(isScVal) || !isScVal(data))
      throw hostFailure("Value", "scecUnexpectedType", "event parts must be ScVals");
    const event = new xdr.ContractEvent({
      ext: xdr.ExtensionPoint.v0(),
      contractId: new xdr.ContractId(contractIdBytes(frame.contractId)),
      type: xdr.ContractEventType.contract,
      body: xdr.ContractEventBody.v0(new xdr.ContractEventV0({ topics, data })),
    });
    const size = event.toXdr().length;
    this.meter(EVENT_INSTRUCTIONS + size * INSTRUCTIONS_PER_BYTE);
    this.metering.eventsBytes += size;
    frame.events.push(event);
    this.#log.push({ kind: "contract", event });
  }

  #context(frame: Frame, contract: Contract): InvocationContext {
    const host = this;
    const env = this.#env;
    const ctx: InvocationContext = {
      contractId: frame.contractId,
      ledgerSequence: env.ledgerSequence,
      timestamp: env.timestamp,
      networkPassphrase: env.networkPassphrase,
      storage: contractStorage(host, frame.contractId, env.ledgerSequence),
      requireAuth(address) {
        host.meter(READ_INSTRUCTIONS);
        const caller = host.#stack[host.#stack.indexOf(frame) - 1];
        if (caller !== undefined && caller.contractId === address) return;
        host.#auth.requireAuth(address, host.#stack.slice(0, host.#stack.indexOf(frame) + 1), host);
      },
      emit: (topics, data) => host.#emit(frame, topics, data),
      call: (contractId, fn, args) => host.#call(contractId, fn, args),
      deploy: (kind, salt, args) => host.deploy(frame.contractId, kind, salt, args),
      setExecutable: (contractId, wasmHash) => host.setExecutable(contractId, wasmHash),
      kindOf: (contractId) => host.kindOf(contractId),
    };
    if (contract !== nativeToken) return ctx;
    const balances = nativeBalances(host, env.ledgerSequence);
    const tokenCtx: NativeTokenContext = { ...ctx, balances };
    return tokenCtx;
  }
}
