// The rules a name's records are held to, in one place for the service (which refuses what breaks them) and the web
// app (which says so beside the field before anything is asked): text-record keys are Soroban symbols, values and
// payment memos have their limits, pay-to addresses are Stellar accounts or contracts. No Stellar SDK here, so the
// web page can check as the person types without loading it; `address.ts` judges Stellar addresses by this code.
import { LABEL_MAX_LENGTH, labelProblem } from "./labels.ts";

/** A Soroban `Symbol`: 1 to 32 of `A-Z`, `a-z`, `0-9` and `_` (a text record's key). */
const SYMBOL_RE = /^[A-Za-z0-9_]{1,32}$/;
export const SYMBOL_MAX_LENGTH = 32;

export function isSymbol(value: string): boolean {
  return SYMBOL_RE.test(value);
}

/** A text record's value: room for a URL, a bio or a key, small enough for one contract entry to stay cheap. */
export const MAX_TEXT_VALUE_CHARS = 1024;
/** A payment memo is what a payer attaches as a Stellar text memo: at most 28 bytes (UTF-8). */
export const MAX_MEMO_BYTES = 28;

export const SYMBOL_RULE = "must be a symbol: 1-32 of A-Z, a-z, 0-9 and '_'";
export const MEMO_RULE = `must be at most ${MAX_MEMO_BYTES} bytes (a Stellar text memo)`;
export const STELLAR_ADDRESS_RULE = "must be a Stellar account (G…) or contract (C…) address";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
/** StrKey version bytes (SEP-23): an ed25519 account is G…, a contract C…. */
const VERSION = { account: 6 << 3, contract: 2 << 3 } as const;

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** What a 56-character StrKey is (account or contract), or null when it is neither or its checksum is wrong. */
export function strKeyKind(s: string): "account" | "contract" | null {
  if (s.length !== 56) return null;
  const bytes = new Uint8Array(35);
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const char of s) {
    const digit = BASE32.indexOf(char);
    if (digit < 0) return null;
    value = (value << 5) | digit;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (value >> bits) & 0xff;
    }
  }
  const body = bytes.subarray(0, 33);
  const sum = (bytes[33] ?? 0) | ((bytes[34] ?? 0) << 8);
  if (crc16(body) !== sum) return null;
  if (body[0] === VERSION.account) return "account";
  if (body[0] === VERSION.contract) return "contract";
  return null;
}

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** Why `key` cannot be a text record's key, in words; null when it can. */
export function textKeyProblem(key: string): string | null {
  if (key === "") return "Write a key, e.g. url or email.";
  if (key.length > SYMBOL_MAX_LENGTH)
    return `A key is at most ${SYMBOL_MAX_LENGTH} characters; this one has ${key.length}.`;
  const bad = [...key].filter((c) => !/[A-Za-z0-9_]/.test(c));
  if (bad.length > 0)
    return `A key uses only letters, digits and “_” (a contract symbol); not ${[...new Set(bad)]
      .map((c) => (c === " " ? "a space" : `“${c}”`))
      .join(", ")}.`;
  return null;
}

/** Why `value` cannot be a text record's value; null when it can (empty means: remove it instead). */
export function textValueProblem(value: string): string | null {
  if (value === "") return "Write a value; to remove the record, use its Remove button.";
  if (value.length > MAX_TEXT_VALUE_CHARS)
    return `A value is at most ${MAX_TEXT_VALUE_CHARS} characters; this one has ${value.length}.`;
  return null;
}

/** Why `memo` cannot be a payment memo; null when it can. */
export function memoProblem(memo: string): string | null {
  const bytes = utf8Bytes(memo);
  if (bytes > MAX_MEMO_BYTES)
    return `A memo is at most ${MAX_MEMO_BYTES} bytes (a Stellar text memo); this one has ${bytes}.`;
  return null;
}

/** Why `address` cannot be paid to; null when it is a Stellar account or contract. */
export function stellarAddressProblem(address: string): string | null {
  if (address === "") return "Write a Stellar account (G…) or contract (C…) address.";
  if (strKeyKind(address) !== null) return null;
  if (/^[GC]/.test(address) && address.length !== 56)
    return `A Stellar address has 56 characters; this one has ${address.length}.`;
  if (/^[GC][A-Z2-7]{55}$/.test(address))
    return "This address has a typing mistake: its checksum does not match.";
  return "This is not a Stellar account (G…) or contract (C…) address.";
}

/** Why `label` cannot be a name's or a subname's label, in words (labels.ts's rule); null when it can. */
export function labelWords(label: string): string | null {
  switch (labelProblem(label)) {
    case null:
      return null;
    case "empty":
      return "Write a label, e.g. pay or shop.";
    case "too_long":
      return `A label is at most ${LABEL_MAX_LENGTH} characters; this one has ${label.length}.`;
    case "invalid_character":
      return `A label uses only a-z, 0-9 and “-”; not ${[
        ...new Set([...label].filter((c) => !/[a-z0-9-]/.test(c))),
      ]
        .map((c) => (c === " " ? "a space" : `“${c}”`))
        .join(", ")}.`;
    case "hyphen_at_edge":
      return "A label does not start or end with “-”.";
  }
}
