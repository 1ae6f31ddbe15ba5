import { keccak_256 } from "@noble/hashes/sha3.js";
import { bech32, bech32m } from "bech32";
import bs58 from "bs58";
import bs58check from "bs58check";

import { strKeyKind } from "./records.ts";

export function isAccountId(s: string): boolean {
  return strKeyKind(s) === "account";
}

export function isContractId(s: string): boolean {
  return strKeyKind(s) === "contract";
}

export function isStellarAddress(s: string): boolean {
  return isAccountId(s) || isContractId(s);
}

export const CHAIN_NETWORKS = ["ethereum", "bitcoin", "solana"] as const;
export type ChainNetwork = (typeof CHAIN_NETWORKS)[number];

export function isChainNetwork(s: string): s is ChainNetwork {
  return (CHAIN_NETWORKS as readonly string[]).includes(s);
}

/** Returns the canonical form of a network address, or null when invalid for that network. */
export function canonicalChainAddress(network: ChainNetwork, address: string): string | null {
  switch (network) {
    case "ethereum":
      return canonicalEthereum(address);
    case "bitcoin":
      return canonicalBitcoin(address);
    case "solana":
      return canonicalSolana(address);
  }
}

function eip55(lowerHex: string): string {
  const hash = keccak_256(new TextEncoder().encode(lowerHex));
  let out = "0x";
  for (let i = 0; i < lowerHex.length; i++) {
    const c = lowerHex.charAt(i);
    // Each hex char is governed by one nibble of the hash, high nibble first.
    const byte = hash[i >> 1] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    out += nibble >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

function canonicalEthereum(address: string): string | null {
  // Only the lower-case "0x" prefix: "0X" is not a form any wallet emits, so accepting it would only
  // create a second spelling of the same record.
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return null;
  const body = address.slice(2);
  const checksummed = eip55(body.toLowerCase());
  // A single-case body carries no checksum; a mixed-case one does and must be honoured, since a
  // mismatch means the address was mistyped.
  if (body === body.toLowerCase() || body === body.toUpperCase()) return checksummed;
  return address === checksummed ? checksummed : null;
}

const BASE58_VERSIONS = new Set([0x00, 0x05, 0x6f, 0xc4]);
const SEGWIT_HRPS = new Set(["bc", "tb"]);
// BIP-173's cap; passed explicitly so the rule does not hinge on the library's default.
const BECH32_MAX_LENGTH = 90;

function canonicalBitcoin(address: string): string | null {
  const segwit = canonicalSegwit(address);
  if (segwit !== null) return segwit;
  let payload: Uint8Array;
  try {
    payload = bs58check.decode(address);
  } catch {
    return null;
  }
  const version = payload[0];
  if (payload.length !== 21 || version === undefined || !BASE58_VERSIONS.has(version)) return null;
  return address;
}

function canonicalSegwit(address: string): string | null {
  if (address.length > BECH32_MAX_LENGTH) return null;
  const lower = address.toLowerCase();
  // BIP-173 forbids mixed case; decoding the lower-cased string below would otherwise let it through.
  if (address !== lower && address !== address.toUpperCase()) return null;
  // Decode with both checksums so the witness version can decide which one was required (BIP-350).
  const asBech32 = bech32.decodeUnsafe(lower, BECH32_MAX_LENGTH);
  const asBech32m = bech32m.decodeUnsafe(lower, BECH32_MAX_LENGTH);
  const decoded = asBech32 ?? asBech32m;
  if (decoded === undefined || !SEGWIT_HRPS.has(decoded.prefix)) return null;
  const [witnessVersion, ...programWords] = decoded.words;
  if (witnessVersion === undefined || witnessVersion > 16) return null;
  const program = bech32.fromWordsUnsafe(programWords);
  if (program === undefined) return null;
  if (witnessVersion === 0) {
    if (asBech32 === undefined) return null;
    if (program.length !== 20 && program.length !== 32) return null;
  } else {
    if (asBech32m === undefined) return null;
    if (program.length < 2 || program.length > 40) return null;
  }
  return lower;
}

function canonicalSolana(address: string): string | null {
  const bytes = bs58.decodeUnsafe(address);
  if (bytes === undefined || bytes.length !== 32) return null;
  return address;
}

const NETWORK_FORMS: Readonly<Record<ChainNetwork, string>> = {
  ethereum: "0x and 40 hexadecimal digits; in mixed case, its checksum must match",
  bitcoin: "a 1…, 3…, m…, n…, 2…, bc1… or tb1… address with a valid checksum",
  solana: "32 bytes written in base58",
};

/**
 * Why `address` cannot be a name's address on `network`, in words (the rule `canonicalChainAddress` holds the
 * service's prepare route to); null when it can.
 */
export function chainAddressProblem(network: string, address: string): string | null {
  if (!isChainNetwork(network)) return `Addresses on ${network} are not kept.`;
  if (address === "") return `Write the ${network} address.`;
  if (canonicalChainAddress(network, address) !== null) return null;
  return `This is not a ${network} address: ${NETWORK_FORMS[network]}.`;
}
