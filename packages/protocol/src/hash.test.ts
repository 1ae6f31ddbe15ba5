import { describe, expect, it } from "vitest";
import {
  childNode,
  claimFeeKey,
  labelhash,
  namehash,
  nameNode,
  namespaceNode,
  subnameNode,
  toHex,
} from "./hash.ts";

// Golden values, computed independently (Python hashlib) and reused by later packages' tests.
export const GOLDEN = {
  acme: "89609386c113661c46e8e7604a4dcaba57d87397a661063232af481164012148",
  "alice.acme": "c95976852c9249db92284f1a506f2df376f3e640c95b11a415d552ffd3a26752",
  "pay.alice.acme": "6a6437ebd987ba4336837c9936e69ae8091f03b94f2c23d764510fb0294214ab",
  labelhashAcme: "822b33ad87c148a0a20a5ba7cd5ebcaa68d36a18e7aad165554903f52ca82757",
} as const;

describe("namehash", () => {
  it("matches the golden nodes of acme, alice.acme and pay.alice.acme", () => {
    console.log(`node(alice.acme) = ${nameNode("alice", "acme")}`);
    console.log(`node(pay.alice.acme) = ${subnameNode("pay", "alice", "acme")}`);
    expect(namespaceNode("acme")).toBe(GOLDEN.acme);
    expect(nameNode("alice", "acme")).toBe(GOLDEN["alice.acme"]);
    expect(subnameNode("pay", "alice", "acme")).toBe(GOLDEN["pay.alice.acme"]);
  });

  it("childNode extends a known parent node", () => {
    expect(childNode(GOLDEN.acme, "alice")).toBe(GOLDEN["alice.acme"]);
    expect(childNode(GOLDEN["alice.acme"], "pay")).toBe(GOLDEN["pay.alice.acme"]);
    expect(() => childNode("zz", "pay")).toThrow(RangeError);
  });

  it("namehash parses full names at every depth", () => {
    expect(namehash("acme")).toBe(GOLDEN.acme);
    expect(namehash("alice.acme")).toBe(GOLDEN["alice.acme"]);
    expect(namehash("pay.alice.acme")).toBe(GOLDEN["pay.alice.acme"]);
  });

  it("labelhash is sha256 of the utf-8 label and keys the claim fee", () => {
    expect(toHex(labelhash("acme"))).toBe(GOLDEN.labelhashAcme);
    expect(claimFeeKey("acme")).toBe(GOLDEN.labelhashAcme);
    expect(claimFeeKey("acme")).not.toBe(namespaceNode("acme"));
  });

  it("nodes are 64 lower-case hex and differ per level", () => {
    const nodes = [namespaceNode("alice"), nameNode("alice", "acme"), nameNode("acme", "alice")];
    for (const n of nodes) expect(n).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(nodes).size).toBe(3);
  });

  it("rejects invalid labels instead of hashing them", () => {
    expect(() => namespaceNode("Acme")).toThrow(RangeError);
    expect(() => nameNode("", "acme")).toThrow(RangeError);
    expect(() => namehash("a.b.c.d")).toThrow(RangeError);
    expect(() => namehash("alice..acme")).toThrow(RangeError);
  });
});
