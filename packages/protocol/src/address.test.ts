import { Keypair, StrKey } from "@stellar/stellar-sdk";
import { bech32, bech32m } from "bech32";
import bs58 from "bs58";
import bs58check from "bs58check";
import { describe, expect, it } from "vitest";
import {
  CHAIN_NETWORKS,
  canonicalChainAddress,
  isAccountId,
  isChainNetwork,
  isContractId,
  isStellarAddress,
} from "./address.ts";

const FIXED_G = "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7";

/** Replaces the character at `i` with a different one from the same alphabet. */
function mutateAt(s: string, i: number, alphabet: string): string {
  const current = s.charAt(i);
  const replacement = alphabet.split("").find((c) => c !== current);
  if (replacement === undefined) throw new Error("alphabet too small");
  return s.slice(0, i) + replacement + s.slice(i + 1);
}

function flipFirstLetterCase(address: string): string {
  const i = address.slice(2).search(/[a-fA-F]/) + 2;
  const c = address.charAt(i);
  const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
  return address.slice(0, i) + flipped + address.slice(i + 1);
}

describe("Stellar addresses", () => {
  const contractId = StrKey.encodeContract(Buffer.alloc(32, 7));

  it("accepts a fixed and a random G account id", () => {
    const random = Keypair.random().publicKey();
    for (const g of [FIXED_G, random]) {
      expect(isAccountId(g)).toBe(true);
      expect(isStellarAddress(g)).toBe(true);
      expect(isContractId(g)).toBe(false);
    }
  });

  it("rejects a G key with a single character changed (checksum mismatch)", () => {
    const base32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    for (const i of [1, 20, FIXED_G.length - 1]) {
      const broken = mutateAt(FIXED_G, i, base32);
      expect(broken).not.toBe(FIXED_G);
      expect(isAccountId(broken)).toBe(false);
      expect(isStellarAddress(broken)).toBe(false);
    }
  });

  it("accepts a C contract id only as a contract", () => {
    expect(contractId.startsWith("C")).toBe(true);
    expect(isContractId(contractId)).toBe(true);
    expect(isAccountId(contractId)).toBe(false);
    expect(isStellarAddress(contractId)).toBe(true);
  });

  it("rejects a secret S key", () => {
    const secret = Keypair.random().secret();
    expect(secret.startsWith("S")).toBe(true);
    expect(isAccountId(secret)).toBe(false);
    expect(isContractId(secret)).toBe(false);
    expect(isStellarAddress(secret)).toBe(false);
  });

  it("rejects surrounding whitespace, lower case and empty input", () => {
    for (const bad of [` ${FIXED_G}`, `${FIXED_G}\n`, FIXED_G.toLowerCase(), "", ` ${contractId}`]) {
      expect(isStellarAddress(bad)).toBe(false);
    }
  });
});

describe("chain networks", () => {
  it("lists exactly the supported networks", () => {
    expect(CHAIN_NETWORKS).toEqual(["ethereum", "bitcoin", "solana"]);
  });

  it("recognises only those names", () => {
    for (const n of CHAIN_NETWORKS) expect(isChainNetwork(n)).toBe(true);
    for (const n of ["Ethereum", "btc", "stellar", "", " solana"]) expect(isChainNetwork(n)).toBe(false);
  });
});

describe("ethereum", () => {
  // The four mixed-case examples from EIP-55.
  const vectors = [
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
  ];

  it.each(vectors)("accepts and keeps the checksummed %s", (addr) => {
    expect(canonicalChainAddress("ethereum", addr)).toBe(addr);
  });

  it.each(vectors)("rejects %s with one letter's case flipped", (addr) => {
    const flipped = flipFirstLetterCase(addr);
    expect(flipped).not.toBe(addr);
    expect(flipped.toLowerCase()).toBe(addr.toLowerCase());
    expect(canonicalChainAddress("ethereum", flipped)).toBeNull();
  });

  it.each(vectors)("canonicalises the single-case forms of %s", (addr) => {
    const body = addr.slice(2);
    expect(canonicalChainAddress("ethereum", `0x${body.toLowerCase()}`)).toBe(addr);
    expect(canonicalChainAddress("ethereum", `0x${body.toUpperCase()}`)).toBe(addr);
  });

  it("rejects a bad prefix, wrong length, non-hex and whitespace", () => {
    const good = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    for (const bad of [
      `0X${good.slice(2)}`,
      good.slice(2),
      good.slice(0, -1),
      `${good}0`,
      `${good.slice(0, -1)}g`,
      ` ${good}`,
      `${good} `,
      "",
    ]) {
      expect(canonicalChainAddress("ethereum", bad)).toBeNull();
    }
  });
});

describe("bitcoin", () => {
  it("accepts base58check P2PKH and P2SH unchanged", () => {
    for (const addr of ["1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"]) {
      expect(canonicalChainAddress("bitcoin", addr)).toBe(addr);
    }
  });

  it("accepts the testnet version bytes and rejects others or wrong payload lengths", () => {
    const hash = new Uint8Array(20).fill(0xab);
    const withVersion = (v: number, body: Uint8Array) => bs58check.encode(Uint8Array.of(v, ...body));
    for (const v of [0x6f, 0xc4]) {
      const addr = withVersion(v, hash);
      expect(canonicalChainAddress("bitcoin", addr)).toBe(addr);
    }
    // 0x30 is Litecoin's P2PKH version: valid base58check, wrong chain.
    expect(canonicalChainAddress("bitcoin", withVersion(0x30, hash))).toBeNull();
    expect(canonicalChainAddress("bitcoin", withVersion(0x00, hash.subarray(1)))).toBeNull();
    expect(canonicalChainAddress("bitcoin", withVersion(0x00, Uint8Array.of(...hash, 1)))).toBeNull();
  });

  it("rejects a broken base58 checksum", () => {
    const addr = "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa";
    const broken = `${addr.slice(0, -1)}b`;
    expect(broken).not.toBe(addr);
    expect(canonicalChainAddress("bitcoin", broken)).toBeNull();
  });

  it("lower-cases the upper-case BIP-173 v0 vector", () => {
    expect(canonicalChainAddress("bitcoin", "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4")).toBe(
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    );
  });

  it("accepts valid BIP-173/BIP-350 segwit vectors", () => {
    for (const addr of [
      "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", // v0, 32-byte program
      "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", // v1 taproot
      "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", // v2, 16-byte program
    ]) {
      expect(canonicalChainAddress("bitcoin", addr)).toBe(addr);
    }
    expect(canonicalChainAddress("bitcoin", "BC1SW50QGDZ25J")).toBe("bc1sw50qgdz25j"); // v16, 2 bytes
  });

  it("requires bech32 for v0 and bech32m for v1+", () => {
    const v0Program = Buffer.from("751e76e8199196d454941c45d1b3a323f1433bd6", "hex");
    const v0AsBech32m = bech32m.encode("bc", [0, ...bech32m.toWords(v0Program)]);
    // Same string as BIP-350's invalid vector; derived here to show exactly what is wrong with it.
    expect(v0AsBech32m).toBe("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh");
    expect(canonicalChainAddress("bitcoin", v0AsBech32m)).toBeNull();

    const v1Program = bech32m.fromWords(
      bech32m.decode("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0").words.slice(1),
    );
    const v1AsBech32 = bech32.encode("bc", [1, ...bech32.toWords(v1Program)]);
    expect(v1AsBech32).toBe("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd");
    expect(canonicalChainAddress("bitcoin", v1AsBech32)).toBeNull();
  });

  it("enforces witness program lengths, the hrp and the 90-char limit", () => {
    const encode = (lib: typeof bech32, hrp: string, version: number, bytes: number) =>
      lib.encode(hrp, [version, ...lib.toWords(new Uint8Array(bytes).fill(1))], 200);
    expect(canonicalChainAddress("bitcoin", encode(bech32, "bc", 0, 20))).not.toBeNull();
    expect(canonicalChainAddress("bitcoin", encode(bech32, "bc", 0, 16))).toBeNull();
    expect(canonicalChainAddress("bitcoin", encode(bech32m, "bc", 1, 1))).toBeNull();
    expect(canonicalChainAddress("bitcoin", encode(bech32m, "bc", 1, 40))).not.toBeNull();
    expect(canonicalChainAddress("bitcoin", encode(bech32m, "bc", 1, 41))).toBeNull();
    expect(canonicalChainAddress("bitcoin", encode(bech32, "ltc", 0, 20))).toBeNull();
    // Version 17 does not exist.
    expect(canonicalChainAddress("bitcoin", encode(bech32m, "bc", 17, 20))).toBeNull();
    const tooLong = encode(bech32m, "bc", 1, 60);
    expect(tooLong.length).toBeGreaterThan(90);
    expect(canonicalChainAddress("bitcoin", tooLong)).toBeNull();
  });

  it("rejects mixed-case bech32 and surrounding whitespace", () => {
    expect(canonicalChainAddress("bitcoin", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).not.toBeNull();
    expect(canonicalChainAddress("bitcoin", "bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).toBeNull();
    expect(canonicalChainAddress("bitcoin", "BC1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).toBeNull();
    expect(canonicalChainAddress("bitcoin", " bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).toBeNull();
    expect(canonicalChainAddress("bitcoin", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa\n")).toBeNull();
    expect(canonicalChainAddress("bitcoin", "")).toBeNull();
  });
});

describe("solana", () => {
  it("accepts 32-byte base58 keys unchanged", () => {
    for (const addr of ["11111111111111111111111111111111", "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"]) {
      expect(canonicalChainAddress("solana", addr)).toBe(addr);
    }
  });

  it("rejects keys that decode to other lengths", () => {
    const short = bs58.encode(new Uint8Array(31).fill(9));
    const long = bs58.encode(new Uint8Array(33).fill(9));
    expect(bs58.decode(short)).toHaveLength(31);
    expect(canonicalChainAddress("solana", short)).toBeNull();
    expect(canonicalChainAddress("solana", long)).toBeNull();
    expect(canonicalChainAddress("solana", "1111111111111111111111111111111")).toBeNull();
    expect(canonicalChainAddress("solana", "")).toBeNull();
  });

  it("rejects characters outside the base58 alphabet and whitespace", () => {
    const key = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
    for (const c of ["0", "O", "I", "l"]) {
      expect(canonicalChainAddress("solana", `${c}${key.slice(1)}`)).toBeNull();
    }
    expect(canonicalChainAddress("solana", ` ${key}`)).toBeNull();
    expect(canonicalChainAddress("solana", `${key} `)).toBeNull();
  });
});
