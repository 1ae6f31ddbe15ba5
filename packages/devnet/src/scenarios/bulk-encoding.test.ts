import { childNode, decodeEventXdr, encodeEvent, namespaceNode } from "@namereg/protocol";
import { Keypair } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { encodeNameIssue, fastChildNode, rawAccountKey } from "./bulk-encoding.ts";

describe("bulk name_v1 encoding", () => {
  const holder = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 7)).publicKey();
  const payTo = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 8)).publicKey();
  const ns = namespaceNode("bulk0");

  it.each(["a", "ab", "abc", "abcd", "n12345", "x".repeat(63)])(
    "is byte-identical to the reference codec for label %s",
    (label) => {
      const node = childNode(ns, label);
      expect(fastChildNode(Buffer.from(ns, "hex"), label).toString("hex")).toBe(node);
      const reference = encodeEvent({
        type: "name_v1",
        node,
        generation: 3n,
        data: { label, action: "issue", holder, address: payTo, expiresAt: 1_900_000_000n },
      });
      const fast = encodeNameIssue(
        Buffer.from(node, "hex"),
        3n,
        label,
        rawAccountKey(holder),
        rawAccountKey(payTo),
        1_900_000_000n,
      );
      expect(fast.topics).toEqual(reference.topics.map((t) => t.toXdr("base64")));
      expect(fast.value).toBe(reference.data.toXdr("base64"));
      expect(decodeEventXdr(fast.topics, fast.value)).toMatchObject({
        type: "name_v1",
        node,
        data: { label, holder },
      });
    },
  );
});
