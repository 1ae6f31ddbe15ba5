import { Keypair, StrKey } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import {
  memoProblem,
  stellarAddressProblem,
  strKeyKind,
  textKeyProblem,
  textValueProblem,
} from "./records.ts";

describe("the record rules the service and the web app share", () => {
  it("judges Stellar addresses as the SDK's StrKey does", () => {
    for (let i = 0; i < 50; i++) {
      const account = Keypair.random().publicKey();
      const contract = StrKey.encodeContract(Keypair.random().rawPublicKey());
      expect(strKeyKind(account)).toBe("account");
      expect(strKeyKind(contract)).toBe("contract");
      // One character changed: the checksum no longer matches, for the SDK as here.
      const last = account.at(-2) === "A" ? "B" : "A";
      const typo = `${account.slice(0, -2)}${last}${account.at(-1)}`;
      expect(strKeyKind(typo)).toBe(StrKey.isValidEd25519PublicKey(typo) ? "account" : null);
    }
    const seed = Keypair.random().secret();
    expect(strKeyKind(seed)).toBeNull();
    expect(StrKey.isValidEd25519PublicKey(seed)).toBe(false);
    expect(strKeyKind("g".repeat(56))).toBeNull();
  });

  it("says what is wrong with an address, in words", () => {
    const account = Keypair.random().publicKey();
    expect(stellarAddressProblem(account)).toBeNull();
    expect(stellarAddressProblem(account.slice(0, 40))).toBe(
      "A Stellar address has 56 characters; this one has 40.",
    );
    const typo = `${account.slice(0, 10)}${account[10] === "A" ? "B" : "A"}${account.slice(11)}`;
    expect(stellarAddressProblem(typo)).toBe(
      "This address has a typing mistake: its checksum does not match.",
    );
    expect(stellarAddressProblem("alice.acme")).toBe(
      "This is not a Stellar account (G…) or contract (C…) address.",
    );
  });

  it("holds text keys to Soroban symbols and values and memos to their limits", () => {
    expect(textKeyProblem("url")).toBeNull();
    expect(textKeyProblem("com_twitter_2")).toBeNull();
    expect(textKeyProblem("bad key!")).toBe(
      "A key uses only letters, digits and “_” (a contract symbol); not a space, “!”.",
    );
    expect(textKeyProblem("k".repeat(33))).toBe("A key is at most 32 characters; this one has 33.");
    expect(textKeyProblem("")).toBe("Write a key, e.g. url or email.");
    expect(textValueProblem("x".repeat(1024))).toBeNull();
    expect(textValueProblem("x".repeat(1025))).toBe("A value is at most 1024 characters; this one has 1025.");
    expect(memoProblem("invoice 42")).toBeNull();
    // Bytes, not characters: 10 × "€" is 30 bytes of UTF-8.
    expect(memoProblem("€".repeat(10))).toBe(
      "A memo is at most 28 bytes (a Stellar text memo); this one has 30.",
    );
  });
});

describe("labels in words", () => {
  it("says the label rule's each problem", async () => {
    const { labelWords } = await import("./records.ts");
    expect(labelWords("pay")).toBeNull();
    expect(labelWords("Pay me")).toBe("A label uses only a-z, 0-9 and “-”; not “P”, a space.");
    expect(labelWords("-pay")).toBe("A label does not start or end with “-”.");
    expect(labelWords("")).toBe("Write a label, e.g. pay or shop.");
  });
});
