// An in-memory InvocationContext host for fast contract unit tests: no ledger, no XDR transactions, no RPC.
// Auth is modelled as a set of signers (the addresses that signed the simulated transaction) plus the
// direct-caller rule; a failed invocation rolls back every storage write and event, as the real host does.
import { createHash } from "node:crypto";
import { StrKey, type xdr } from "@stellar/stellar-sdk";
import {
  type Contract,
  ContractError,
  type ContractStorage,
  type InvocationContext,
} from "../../host/contract.ts";

export class AuthError extends Error {
  constructor(address: string) {
    super(`Error(Auth, InvalidAction): missing authorisation of ${address}`);
    this.name = "AuthError";
  }
}

interface Instance {
  kind: string;
  storage: Map<string, xdr.ScVal>;
  executable: string;
}

export interface EmittedEvent {
  contractId: string;
  topics: xdr.ScVal[];
  data: xdr.ScVal;
}

const keyOf = (key: xdr.ScVal): string => key.toXDR("base64");

export class MemoryHost {
  readonly networkPassphrase = "Memory Host ; test";
  ledgerSequence = 100;
  timestamp = 1_800_000_000n;
  readonly events: EmittedEvent[] = [];
  private readonly kinds = new Map<string, Contract>();
  private readonly instances = new Map<string, Instance>();
  private deployCounter = 0;

  register(contract: Contract): void {
    this.kinds.set(contract.kind, contract);
  }

  /** Deploys a contract at genesis (no deployer) and runs its constructor with full authority. */
  deploy(kind: string, args: xdr.ScVal[] = [], signers: string[] = []): string {
    const id = StrKey.encodeContract(
      createHash("sha256")
        .update(`genesis:${kind}:${this.deployCounter++}`)
        .digest(),
    );
    this.createInstance(id, kind);
    if (args.length > 0) this.invoke(id, "__constructor", args, signers);
    return id;
  }

  /** Invokes a contract function as a transaction signed by `signers`; rolls back on any failure. */
  invoke(contractId: string, fn: string, args: xdr.ScVal[], signers: string[] = []): xdr.ScVal {
    const snapshot = [...this.instances].map(
      ([id, inst]) => [id, { ...inst, storage: new Map(inst.storage) }] as const,
    );
    const eventCount = this.events.length;
    const deployCount = this.deployCounter;
    try {
      return this.call(contractId, fn, args, new Set(signers), null);
    } catch (err) {
      this.instances.clear();
      for (const [id, inst] of snapshot) this.instances.set(id, inst);
      this.events.length = eventCount;
      this.deployCounter = deployCount;
      throw err;
    }
  }

  /** Events emitted since `from` (index into `events`). */
  eventsSince(from: number): EmittedEvent[] {
    return this.events.slice(from);
  }

  executableOf(contractId: string): string | undefined {
    return this.instances.get(contractId)?.executable;
  }

  private createInstance(id: string, kind: string): void {
    if (!this.kinds.has(kind)) throw new Error(`unknown contract kind ${kind}`);
    this.instances.set(id, { kind, storage: new Map(), executable: `wasm:${kind}` });
  }

  private call(
    contractId: string,
    fn: string,
    args: xdr.ScVal[],
    signers: Set<string>,
    caller: string | null,
  ): xdr.ScVal {
    const inst = this.instances.get(contractId);
    if (inst === undefined) throw new Error(`no contract ${contractId}`);
    const contract = this.kinds.get(inst.kind);
    if (contract === undefined) throw new Error(`no contract kind ${inst.kind}`);
    const storage: ContractStorage = {
      get: (k) => inst.storage.get(keyOf(k)),
      has: (k) => inst.storage.has(keyOf(k)),
      set: (k, v) => {
        inst.storage.set(keyOf(k), v);
      },
      remove: (k) => {
        inst.storage.delete(keyOf(k));
      },
    };
    const ctx: InvocationContext = {
      contractId,
      ledgerSequence: this.ledgerSequence,
      timestamp: this.timestamp,
      networkPassphrase: this.networkPassphrase,
      storage,
      requireAuth: (address) => {
        if (!signers.has(address) && address !== caller) throw new AuthError(address);
      },
      emit: (topics, data) => {
        this.events.push({ contractId, topics, data });
      },
      call: (target, targetFn, targetArgs) => this.call(target, targetFn, targetArgs, signers, contractId),
      deploy: (kind, salt, ctorArgs) => {
        const id = StrKey.encodeContract(
          createHash("sha256")
            .update(contractId)
            .update(salt)
            .update(String(this.deployCounter++))
            .digest(),
        );
        this.createInstance(id, kind);
        this.call(id, "__constructor", ctorArgs, signers, contractId);
        return id;
      },
      setExecutable: (target, wasmHash) => {
        const t = this.instances.get(target);
        if (t === undefined) throw new ContractError(3, `no contract ${target}`);
        t.executable = Buffer.from(wasmHash).toString("hex");
      },
      kindOf: (target) => this.instances.get(target)?.kind,
    };
    return contract.invoke(ctx, fn, args);
  }
}
