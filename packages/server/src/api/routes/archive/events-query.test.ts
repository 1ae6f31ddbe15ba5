import { createHash } from "node:crypto";
import { demoKeypair } from "@namereg/devnet";
import { claimFeeKey, nameNode, namespaceNode, subnameNode } from "@namereg/protocol";
import { describe, expect, it } from "vitest";
import { canonicalSubject, decodeCursor, encodeCursor, filterFingerprint } from "./events-query.ts";

const ID = "0000004294971392-0000000001";

describe("canonicalSubject", () => {
  it("hashes names at every depth to their nodes", () => {
    expect(canonicalSubject("acme")).toBe(namespaceNode("acme"));
    expect(canonicalSubject("alice.acme")).toBe(nameNode("alice", "acme"));
    expect(canonicalSubject("pay.alice.acme")).toBe(subnameNode("pay", "alice", "acme"));
  });

  it("lower-cases A-Z in names first, the one case rule of every name", () => {
    expect(canonicalSubject("Alice.acme")).toBe(nameNode("alice", "acme"));
    expect(canonicalSubject("ACME")).toBe(namespaceNode("acme"));
    expect(canonicalSubject("G123")).toBe(namespaceNode("g123"));
    expect(canonicalSubject("Pay.ALICE.Acme")).toBe(subnameNode("pay", "alice", "acme"));
    // No Unicode folding: a dotted capital I stays invalid.
    expect(canonicalSubject("\u0130nfo.acme")).toBeNull();
  });

  it("keeps nodes and fee keys in lower-case hex, addresses and claim ids as stored", () => {
    const node = nameNode("alice", "acme");
    expect(canonicalSubject(node)).toBe(node);
    expect(canonicalSubject(node.toUpperCase())).toBe(node);
    expect(canonicalSubject(claimFeeKey("newco"))).toBe(claimFeeKey("newco"));
    const account = demoKeypair("alice").publicKey();
    expect(canonicalSubject(account)).toBe(account);
    expect(canonicalSubject("7")).toBe("7");
    expect(canonicalSubject("007")).toBe("7");
    expect(canonicalSubject("18446744073709551615")).toBe("18446744073709551615");
  });

  it("rejects what no stored subject can be", () => {
    for (const bad of [
      "",
      "a.b.c.d",
      "alice..acme",
      "-x.acme",
      "18446744073709551616",
      "123456789012345678901",
      // An address with a wrong checksum is refused, not lower-cased into a namespace.
      `${demoKeypair("alice").publicKey().slice(0, -1)}${demoKeypair("alice").publicKey().endsWith("A") ? "B" : "A"}`,
      "abc".repeat(22),
    ]) {
      expect(canonicalSubject(bad), bad).toBeNull();
    }
  });
});

describe("cursor", () => {
  it("round-trips and carries the fingerprint of its filters", () => {
    const filters = { subject: nameNode("alice", "acme") };
    const cursor = encodeCursor(ID, filters);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ v: 1, after: ID, f: filterFingerprint(filters) });
  });

  it("fingerprints which filter holds a value, not just the values", () => {
    expect(filterFingerprint({ subject: "acme" })).not.toBe(filterFingerprint({ namespace: "acme" }));
    expect(filterFingerprint({})).toBe(filterFingerprint({ contractId: undefined }));
    expect(filterFingerprint({})).toMatch(/^[0-9a-f]{16}$/);
  });

  it("keeps the fingerprint of filter sets without a txHash, and tells a txHash apart", () => {
    // The fingerprint of the three original filters, as issued before txHash existed: cursors in clients' hands
    // stay valid.
    const legacy = (c: string | null, s: string | null, n: string | null) =>
      createHash("sha256")
        .update(JSON.stringify([c, s, n]))
        .digest("hex")
        .slice(0, 16);
    expect(filterFingerprint({})).toBe(legacy(null, null, null));
    expect(filterFingerprint({ namespace: "acme" })).toBe(legacy(null, null, "acme"));
    expect(filterFingerprint({ namespace: "acme", txHash: undefined })).toBe(legacy(null, null, "acme"));
    const tx = "ab".repeat(32);
    expect(filterFingerprint({ txHash: tx })).not.toBe(filterFingerprint({}));
    expect(filterFingerprint({ txHash: tx })).not.toBe(filterFingerprint({ subject: tx }));
  });

  it("rejects anything it did not issue", () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const f = filterFingerprint({});
    for (const bad of [
      "",
      "not a cursor",
      `${encodeCursor(ID, {})}=`,
      Buffer.from("{").toString("base64url"),
      b64({ v: 2, after: ID, f }),
      b64({ v: 1, after: "'; drop table events; --", f }),
      b64({ v: 1, after: ID, f: "xyz" }),
      b64({ v: 1, after: ID, f, extra: true }),
      b64([1, ID, f]),
      "A".repeat(300),
    ]) {
      expect(decodeCursor(bad), bad).toBeNull();
    }
  });
});
