import { xdr } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import {
  hash32,
  label,
  option,
  ScValDecodeError,
  string,
  struct,
  symbolEnum,
  tuple,
  u32,
  u64,
  vec,
} from "./scval.ts";

const Pair = struct("Pair", { firstValue: u64, second: option(string) });

function entry(key: string, val: xdr.ScVal): xdr.ScMapEntry {
  return new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol(key), val });
}

describe("scval codecs", () => {
  it("struct fields use snake_case keys on the wire", () => {
    const v = Pair.encode({ firstValue: 5n, second: "x" });
    if (v.type !== "scvMap" || v.map === null) throw new Error("map expected");
    expect(v.map.map((e) => (e.key.type === "scvSymbol" ? e.key.sym.toString() : ""))).toEqual([
      "first_value",
      "second",
    ]);
  });

  it("struct decoding ignores unknown keys but rejects repeated or missing ones", () => {
    const extra = xdr.ScVal.scvMap([
      entry("first_value", xdr.ScVal.scvU64(1n)),
      entry("new_field", xdr.ScVal.scvBool(true)),
      entry("second", xdr.ScVal.scvVoid()),
    ]);
    expect(Pair.decode(extra)).toEqual({ firstValue: 1n, second: null });
    const repeated = xdr.ScVal.scvMap([
      entry("first_value", xdr.ScVal.scvU64(1n)),
      entry("first_value", xdr.ScVal.scvU64(2n)),
      entry("second", xdr.ScVal.scvVoid()),
    ]);
    expect(() => Pair.decode(repeated)).toThrow(/repeats field first_value/);
    expect(() => Pair.decode(xdr.ScVal.scvMap([entry("second", xdr.ScVal.scvVoid())]))).toThrow(
      /lacks first_value/,
    );
  });

  it("errors carry the path of the bad value", () => {
    const Outer = struct("Outer", { items: vec(Pair) });
    const bad = xdr.ScVal.scvMap([
      entry("items", xdr.ScVal.scvVec([Pair.encode({ firstValue: 1n, second: null }), xdr.ScVal.scvU32(3)])),
    ]);
    try {
      Outer.decode(bad);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ScValDecodeError);
      expect((err as ScValDecodeError).path).toBe("items[1]");
    }
  });

  it("validates primitives strictly", () => {
    expect(() => u64.decode(xdr.ScVal.scvU32(1))).toThrow(ScValDecodeError);
    expect(() => u32.encode(2 ** 32)).toThrow(RangeError);
    expect(() => hash32.decode(xdr.ScVal.scvBytes(Buffer.alloc(33)))).toThrow(/32 bytes/);
    expect(() => hash32.encode("AB".repeat(32))).toThrow(RangeError);
    expect(() => label.decode(xdr.ScVal.scvBytes(Buffer.from([0xff, 0xfe])))).toThrow(/UTF-8/);
    expect(() => string.decode(xdr.ScVal.scvString(Buffer.from([0xc3])))).toThrow(/UTF-8/);
    expect(() => symbolEnum(["a", "b"]).decode(xdr.ScVal.scvSymbol("c"))).toThrow(ScValDecodeError);
    expect(() => tuple([u64, u64]).decode(xdr.ScVal.scvVec([xdr.ScVal.scvU64(1n)]))).toThrow(/2-tuple/);
    expect(tuple([u64, string]).decode(tuple([u64, string]).encode([9n, "z"]))).toEqual([9n, "z"]);
  });
});
