// A contract function definition: its argument layout and return codec, encoding and decoding both ways.
import type { xdr } from "@stellar/stellar-sdk";
import { bytes, type Codec, type CodecValue, hash32, ScValDecodeError } from "../scval.ts";

export type ArgSpec = readonly (readonly [string, Codec<unknown>])[];
export type ArgValues<A extends ArgSpec> = { [E in A[number] as E[0]]: CodecValue<E[1]> };

export interface FnDef<A extends ArgSpec, R> {
  readonly name: string;
  readonly args: A;
  readonly returns: Codec<R>;
  encodeArgs(values: ArgValues<A>): xdr.ScVal[];
  /** Throws ScValDecodeError on a wrong argument count or layout (the host reports it as a trap). */
  decodeArgs(args: readonly xdr.ScVal[]): ArgValues<A>;
}

export function fn<const A extends ArgSpec, R>(name: string, args: A, returns: Codec<R>): FnDef<A, R> {
  return {
    name,
    args,
    returns,
    encodeArgs(values) {
      const v = values as Record<string, unknown>;
      return args.map(([argName, codec]) => codec.encode(v[argName]));
    },
    decodeArgs(raw) {
      if (raw.length !== args.length) {
        throw new ScValDecodeError(name, `expected ${args.length} arguments, got ${raw.length}`);
      }
      const out: Record<string, unknown> = {};
      args.forEach(([argName, codec], i) => {
        out[argName] = codec.decode(raw[i] as xdr.ScVal, `${name}.${argName}`);
      });
      return out as ArgValues<A>;
    },
  };
}

export const node = hash32;
export const wasm = bytes;
