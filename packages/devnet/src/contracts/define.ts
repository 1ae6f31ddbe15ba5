// Glue between the protocol's function signatures and contract implementations: each contract declares its
// handlers against the FnDefs, so argument decoding and return encoding follow the one shared layout.
import { type ArgSpec, type ArgValues, type Codec, type FnDef, u32 } from "@namereg/protocol";
import { xdr } from "@stellar/stellar-sdk";
import {
  type Contract,
  ContractError,
  type ContractStorage,
  type InvocationContext,
} from "../host/contract.ts";

// biome-ignore lint/suspicious/noExplicitAny: a table of heterogeneous signatures
type AnyFn = FnDef<any, any>;
type Handler<F> =
  F extends FnDef<infer A, infer R> ? (ctx: InvocationContext, args: ArgValues<A>) => R : never;

export function defineContract<F extends Record<string, AnyFn>>(
  kind: string,
  fns: F,
  handlers: { [K in keyof F]: Handler<F[K]> },
): Contract {
  return {
    kind,
    invoke(ctx, fn, args) {
      if (!Object.hasOwn(fns, fn)) throw new Error(`${kind}: no function ${fn}`);
      const def = fns[fn] as AnyFn;
      const handler = handlers[fn] as (ctx: InvocationContext, args: unknown) => unknown;
      return def.returns.encode(handler(ctx, def.decodeArgs(args)));
    },
  };
}

/** Calls another contract through a shared signature, decoding its return value. */
export function callFn<A extends ArgSpec, R>(
  ctx: InvocationContext,
  contractId: string,
  def: FnDef<A, R>,
  args: ArgValues<A>,
): R {
  return def.returns.decode(ctx.call(contractId, def.name, def.encodeArgs(args)));
}

/** A storage key: a Vec of a symbol tag and the key's parts, the usual Soroban `DataKey` enum layout. */
export function key(tag: string, ...parts: xdr.ScVal[]): xdr.ScVal {
  return xdr.ScVal.scvVec([xdr.ScVal.scvSymbol(tag), ...parts]);
}

/** Typed reads and writes of contract storage. */
export function typed(storage: ContractStorage) {
  return {
    get<T>(k: xdr.ScVal, codec: Codec<T>): T | undefined {
      const v = storage.get(k);
      return v === undefined ? undefined : codec.decode(v);
    },
    need<T>(k: xdr.ScVal, codec: Codec<T>, errorCode: number): T {
      const v = storage.get(k);
      if (v === undefined) throw new ContractError(errorCode);
      return codec.decode(v);
    },
    set<T>(k: xdr.ScVal, codec: Codec<T>, value: T): void {
      storage.set(k, codec.encode(value));
    },
    remove(k: xdr.ScVal): void {
      storage.remove(k);
    },
    /** Next value of a u32 counter stored under `k`, starting at 0. */
    next(k: xdr.ScVal): number {
      const n = storage.get(k);
      const value = n === undefined ? 0 : u32.decode(n);
      storage.set(k, u32.encode(value + 1));
      return value;
    },
  };
}

export function emitEvent(ctx: InvocationContext, event: { topics: xdr.ScVal[]; data: xdr.ScVal }): void {
  ctx.emit(event.topics, event.data);
}
