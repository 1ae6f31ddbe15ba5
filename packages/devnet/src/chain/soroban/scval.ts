// Small ScVal builders and readers used by the host and the built-in token.
import { Address, nativeToScVal, scValToNative, xdr } from "@stellar/stellar-sdk";

export function i128(value: bigint): xdr.ScVal {
  return nativeToScVal(value, { type: "i128" });
}

export function readI128(value: xdr.ScVal | undefined): bigint | undefined {
  if (value === undefined || value.type !== "scvI128") return undefined;
  return scValToNative(value) as bigint;
}

export function symbol(text: string): xdr.ScVal {
  return xdr.ScVal.scvSymbol(text);
}

export function addressVal(address: string): xdr.ScVal {
  return new Address(address).toScVal();
}

export function readAddress(value: xdr.ScVal | undefined): string | undefined {
  if (value === undefined || value.type !== "scvAddress") return undefined;
  return Address.fromScAddress(value.address).toString();
}

/** A struct as Soroban encodes it: a map with symbol keys in sorted order. */
export function struct(fields: Record<string, xdr.ScVal>): xdr.ScVal {
  return xdr.ScVal.scvMap(
    Object.keys(fields)
      .sort()
      .map(
        (key) =>
          new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol(key), val: fields[key] ?? xdr.ScVal.scvVoid() }),
      ),
  );
}

export function structField(value: xdr.ScVal | undefined, name: string): xdr.ScVal | undefined {
  if (value === undefined || value.type !== "scvMap" || value.map === null) return undefined;
  return value.map.find((e) => e.key.type === "scvSymbol" && e.key.sym.toString() === name)?.val;
}
