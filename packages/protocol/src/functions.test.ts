import { Keypair, StrKey, xdr } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { AllocatorFns, LookupFns, RegistrarFns, RegistryFns, ResolverFns } from "./functions.ts";
import { nameNode, namespaceNode } from "./hash.ts";
import { ScValDecodeError } from "./scval.ts";

const G1 = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1)).publicKey();
const C1 = StrKey.encodeContract(Buffer.alloc(32, 3));

describe("function codecs", () => {
  it("encodes arguments in declaration order and decodes them back", () => {
    const args = { label: "pay", child: "x", parentGeneration: 2n, generation: null, address: C1 };
    const raw = RegistrarFns.create_subname.encodeArgs(args);
    expect(raw.map((v) => v.type)).toEqual(["scvBytes", "scvBytes", "scvU64", "scvVoid", "scvAddress"]);
    expect(RegistrarFns.create_subname.decodeArgs(raw)).toEqual(args);
    // Through XDR bytes too.
    const viaXdr = raw.map((v) => xdr.ScVal.fromXDR(v.toXDR("base64"), "base64"));
    expect(RegistrarFns.create_subname.decodeArgs(viaXdr)).toEqual(args);
  });

  it("round-trips struct return values", () => {
    const ns = {
      label: "acme",
      owner: G1,
      registrar: C1,
      resolver: null,
      locked: false,
      allocatedLedger: 12n,
      method: "reserved" as const,
    };
    const v = RegistryFns.namespace.returns.encode(ns);
    expect(RegistryFns.namespace.returns.decode(v)).toEqual(ns);
    expect(RegistryFns.namespace.returns.decode(xdr.ScVal.scvVoid())).toBeNull();
    const res = { holder: G1, address: C1, memo: null, expiresAt: 0n, node: nameNode("alice", "acme") };
    expect(LookupFns.lookup.returns.decode(LookupFns.lookup.returns.encode(res))).toEqual(res);
    const subs = [["pay", { exists: true, parentGeneration: 1n, generation: 1n, address: G1 }]] as const;
    const encoded = RegistrarFns.subnames.returns.encode(subs.map(([l, c]) => [l, c]));
    expect(RegistrarFns.subnames.returns.decode(encoded)).toEqual([["pay", subs[0][1]]]);
  });

  it("rejects a wrong argument count or layout", () => {
    expect(() => ResolverFns.addr.decodeArgs([])).toThrow(ScValDecodeError);
    expect(() => ResolverFns.addr.decodeArgs([xdr.ScVal.scvString(namespaceNode("acme"))])).toThrow(
      ScValDecodeError,
    );
    expect(() => AllocatorFns.fee_credit.returns.decode(xdr.ScVal.scvU64(5n))).toThrow(ScValDecodeError);
  });

  it("refuses to encode out-of-range values", () => {
    expect(() => AllocatorFns.object.encodeArgs({ objector: G1, id: -1n, basis: [], bond: 0n })).toThrow(
      RangeError,
    );
    expect(() => RegistrarFns.subnames.encodeArgs({ label: "a", offset: -1, limit: 16 })).toThrow(RangeError);
    expect(() => RegistrarFns.name.encodeArgs({ label: "Bad" })).toThrow(RangeError);
  });

  it("i128 covers negatives and the full range", () => {
    for (const n of [0n, 1n, -1n, 2n ** 64n, -(2n ** 64n) - 5n, 2n ** 127n - 1n, -(2n ** 127n)]) {
      expect(AllocatorFns.fee_credit.returns.decode(AllocatorFns.fee_credit.returns.encode(n))).toBe(n);
    }
    expect(() => AllocatorFns.fee_credit.returns.encode(2n ** 127n)).toThrow(RangeError);
  });
});
