import { Address, Keypair, StrKey, xdr } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { i128, string } from "./scval.ts";
import { readScVal } from "./scval-reader.ts";

const G = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 5)).publicKey();
const C = StrKey.encodeContract(Buffer.alloc(32, 6));

/** Compares by re-encoding through the SDK: rebuild an SDK instance from what the reader produced. */
function rebuild(v: unknown): xdr.ScVal {
  const o = v as Record<string, unknown> & { type: string };
  switch (o.type) {
    case "scvBool":
      return xdr.ScVal.scvBool(o.b as boolean);
    case "scvVoid":
      return xdr.ScVal.scvVoid();
    case "scvU32":
      return xdr.ScVal.scvU32(o.u32 as number);
    case "scvI32":
      return xdr.ScVal.scvI32(o.i32 as number);
    case "scvU64":
      return xdr.ScVal.scvU64(o.u64 as bigint);
    case "scvI64":
      return xdr.ScVal.scvI64(o.i64 as bigint);
    case "scvI128":
      return i128.encode(i128.decode(o as unknown as xdr.ScVal));
    case "scvBytes":
      return xdr.ScVal.scvBytes((o.bytes as { value: Uint8Array }).value);
    case "scvString":
      return xdr.ScVal.scvString((o.str as { bytes: Uint8Array }).bytes);
    case "scvSymbol":
      return xdr.ScVal.scvSymbol((o.sym as { bytes: Uint8Array }).bytes);
    case "scvVec":
      return xdr.ScVal.scvVec(o.vec === null ? null : (o.vec as unknown[]).map(rebuild));
    case "scvMap":
      return xdr.ScVal.scvMap(
        o.map === null
          ? null
          : (o.map as { key: unknown; val: unknown }[]).map(
              (e) => new xdr.ScMapEntry({ key: rebuild(e.key), val: rebuild(e.val) }),
            ),
      );
    case "scvAddress": {
      const a = o.address as {
        type: string;
        accountId?: { ed25519: { value: Uint8Array } };
        contractId?: { value: Uint8Array };
      };
      const id =
        a.type === "scAddressTypeAccount"
          ? StrKey.encodeEd25519PublicKey(Buffer.from(a.accountId?.ed25519.value ?? []))
          : StrKey.encodeContract(Buffer.from(a.contractId?.value ?? []));
      return new Address(id).toScVal();
    }
    default:
      return v as xdr.ScVal; // an SDK instance from the fallback
  }
}

const SAMPLES: [string, xdr.ScVal][] = [
  ["bool", xdr.ScVal.scvBool(true)],
  ["void", xdr.ScVal.scvVoid()],
  ["u32", xdr.ScVal.scvU32(4_000_000_000)],
  ["i32", xdr.ScVal.scvI32(-7)],
  ["u64 max", xdr.ScVal.scvU64((1n << 64n) - 1n)],
  ["i64 min", xdr.ScVal.scvI64(-(1n << 63n))],
  ["i128 negative", i128.encode(-(2n ** 100n) - 3n)],
  ["bytes odd length", xdr.ScVal.scvBytes(Buffer.from([1, 2, 3, 4, 5]))],
  ["string utf-8", string.encode("héllo wörld")],
  ["symbol", xdr.ScVal.scvSymbol("name_v1")],
  ["vec none", xdr.ScVal.scvVec(null)],
  [
    "nested map",
    xdr.ScVal.scvMap([
      new xdr.ScMapEntry({
        key: xdr.ScVal.scvSymbol("k"),
        val: xdr.ScVal.scvVec([xdr.ScVal.scvU32(1), new Address(G).toScVal()]),
      }),
    ]),
  ],
  ["account address", new Address(G).toScVal()],
  ["contract address", new Address(C).toScVal()],
  ["fallback: timepoint", xdr.ScVal.scvTimepoint(99n)],
];

describe("fast ScVal reader", () => {
  it.each(SAMPLES)("reads %s exactly as the SDK encodes it", (_, value) => {
    const b64 = value.toXdr("base64");
    expect(rebuild(readScVal(b64)).toXdr("base64")).toBe(b64);
  });

  it("rejects truncated and over-long input like the SDK", () => {
    const b64 = xdr.ScVal.scvU64(5n).toXdr("base64");
    const cut = Buffer.from(b64, "base64").subarray(0, 6).toString("base64");
    expect(() => readScVal(cut)).toThrow();
    const longer = Buffer.concat([Buffer.from(b64, "base64"), Buffer.alloc(4)]).toString("base64");
    expect(() => readScVal(longer)).toThrow(/trailing/);
  });
});
