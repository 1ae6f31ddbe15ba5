// Typed ScVal codecs. The SDK's nativeToScVal/scValToNative guess types from JS values and accept anything;
// the contracts fix exact layouts (u64 vs i128, Bytes vs String, maps with symbol keys), so every layout is
// written down once here as a codec that encodes exactly and rejects anything else with a typed error.
import { Address, StrKey, xdr } from "@stellar/stellar-sdk";
import { fromHex, toHex } from "./hash.ts";
import { isValidLabel } from "./labels.ts";
import { isSymbol } from "./records.ts";
import { readScVal } from "./scval-reader.ts";

export class ScValDecodeError extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(`${path || "value"}: ${message}`);
    this.name = "ScValDecodeError";
    this.path = path;
  }
}

export interface Codec<T> {
  /** Human-readable layout, used in error messages. */
  readonly describe: string;
  encode(value: T): xdr.ScVal;
  /** Throws ScValDecodeError when `value` does not have this layout. */
  decode(value: xdr.ScVal, path?: string): T;
}

export type CodecValue<C> = C extends Codec<infer T> ? T : never;

function expect<K extends xdr.ScVal["type"]>(
  value: xdr.ScVal,
  type: K,
  path: string,
  describe: string,
): Extract<xdr.ScVal, { type: K }> {
  if (value.type !== type) throw new ScValDecodeError(path, `expected ${describe}, got ${value.type}`);
  return value as Extract<xdr.ScVal, { type: K }>;
}

const U64_MAX = (1n << 64n) - 1n;
const I128_MIN = -(1n << 127n);
const I128_MAX = (1n << 127n) - 1n;
const U32_MAX = 0xffff_ffff;

export const u32: Codec<number> = {
  describe: "u32",
  encode(v) {
    if (!Number.isInteger(v) || v < 0 || v > U32_MAX) throw new RangeError(`u32 out of range: ${v}`);
    return xdr.ScVal.scvU32(v);
  },
  decode: (v, path = "") => expect(v, "scvU32", path, "u32").u32,
};

export const u64: Codec<bigint> = {
  describe: "u64",
  encode(v) {
    if (v < 0n || v > U64_MAX) throw new RangeError(`u64 out of range: ${v}`);
    return xdr.ScVal.scvU64(v);
  },
  decode: (v, path = "") => expect(v, "scvU64", path, "u64").u64,
};

export const i128: Codec<bigint> = {
  describe: "i128",
  encode(v) {
    if (v < I128_MIN || v > I128_MAX) throw new RangeError(`i128 out of range: ${v}`);
    const lo = BigInt.asUintN(64, v);
    const hi = BigInt.asIntN(64, v >> 64n);
    return xdr.ScVal.scvI128(new xdr.Int128Parts({ hi, lo }));
  },
  decode(v, path = "") {
    const parts = expect(v, "scvI128", path, "i128").i128;
    return (BigInt.asIntN(64, parts.hi) << 64n) | BigInt.asUintN(64, parts.lo);
  },
};

export const bool: Codec<boolean> = {
  describe: "bool",
  encode: (v) => xdr.ScVal.scvBool(v),
  decode: (v, path = "") => expect(v, "scvBool", path, "bool").b,
};

/** The unit value (a function returning nothing, an event without data). */
export const unit: Codec<null> = {
  describe: "void",
  encode: () => xdr.ScVal.scvVoid(),
  decode(v, path = "") {
    expect(v, "scvVoid", path, "void");
    return null;
  },
};

export const symbol: Codec<string> = {
  describe: "Symbol",
  encode(v) {
    if (!isSymbol(v)) throw new RangeError(`invalid symbol: ${JSON.stringify(v)}`);
    return xdr.ScVal.scvSymbol(v);
  },
  decode(v, path = "") {
    const s = expect(v, "scvSymbol", path, "Symbol").sym.toString();
    if (!isSymbol(s)) throw new ScValDecodeError(path, `invalid symbol ${JSON.stringify(s)}`);
    return s;
  },
};

export function symbolEnum<const T extends readonly string[]>(values: T): Codec<T[number]> {
  const allowed = new Set<string>(values);
  return {
    describe: `Symbol(${values.join("|")})`,
    encode(v) {
      if (!allowed.has(v)) throw new RangeError(`symbol not one of ${values.join(", ")}: ${v}`);
      return xdr.ScVal.scvSymbol(v);
    },
    decode(v, path = "") {
      const s = expect(v, "scvSymbol", path, "Symbol").sym.toString();
      if (!allowed.has(s))
        throw new ScValDecodeError(path, `symbol ${JSON.stringify(s)} not one of ${values.join(", ")}`);
      return s as T[number];
    },
  };
}

export const string: Codec<string> = {
  describe: "String",
  encode: (v) => xdr.ScVal.scvString(v),
  decode(v, path = "") {
    const s = expect(v, "scvString", path, "String").str;
    try {
      return s.toStringStrict();
    } catch {
      throw new ScValDecodeError(path, "String is not valid UTF-8");
    }
  },
};

export const bytes: Codec<Uint8Array> = {
  describe: "Bytes",
  encode: (v) => xdr.ScVal.scvBytes(v),
  decode: (v, path = "") => expect(v, "scvBytes", path, "Bytes").bytes.value,
};

const HEX_RE = /^[0-9a-f]*$/;

/** 32 raw bytes shown as 64 lower-case hex characters (nodes, hashes, keys). */
export const hash32: Codec<string> = {
  describe: "Bytes(32)",
  encode(v) {
    if (v.length !== 64 || !HEX_RE.test(v))
      throw new RangeError(`expected 64 lower-case hex characters: ${v}`);
    return xdr.ScVal.scvBytes(fromHex(v));
  },
  decode(v, path = "") {
    const raw = expect(v, "scvBytes", path, "Bytes(32)").bytes.value;
    if (raw.length !== 32) throw new ScValDecodeError(path, `expected 32 bytes, got ${raw.length}`);
    return toHex(raw);
  },
};

const utf8 = new TextDecoder("utf-8", { fatal: true });
const utf8Encoder = new TextEncoder();

/** A label carried as Bytes (utf-8): the chain stores only valid lower-case labels. */
export const label: Codec<string> = {
  describe: "Bytes(label)",
  encode(v) {
    if (!isValidLabel(v)) throw new RangeError(`invalid label: ${JSON.stringify(v)}`);
    return xdr.ScVal.scvBytes(utf8Encoder.encode(v));
  },
  decode(v, path = "") {
    const raw = expect(v, "scvBytes", path, "Bytes(label)").bytes.value;
    let text: string;
    try {
      text = utf8.decode(raw);
    } catch {
      throw new ScValDecodeError(path, "label is not valid UTF-8");
    }
    if (!isValidLabel(text)) throw new ScValDecodeError(path, `invalid label ${JSON.stringify(text)}`);
    return text;
  },
};

/**
 * A namespace record's stored label: a valid label, or empty Bytes (null) for a record written by a legacy
 * allocation, which stored and emitted only the node (docs/contracts.md "Rules the indexer relies on").
 */
export const storedLabel: Codec<string | null> = {
  describe: "Bytes(label or empty)",
  encode(v) {
    return v === null ? xdr.ScVal.scvBytes(new Uint8Array(0)) : label.encode(v);
  },
  decode(v, path = "") {
    const raw = expect(v, "scvBytes", path, "Bytes(label or empty)").bytes.value;
    return raw.length === 0 ? null : label.decode(v, path);
  },
};

/** A G account or C contract address as its strkey. */
export const address: Codec<string> = {
  describe: "Address",
  encode: (v) => new Address(v).toScVal(),
  decode(v, path = "") {
    const a = expect(v, "scvAddress", path, "Address");
    const kind = a.address.type;
    if (kind !== "scAddressTypeAccount" && kind !== "scAddressTypeContract") {
      throw new ScValDecodeError(path, `unsupported address kind ${kind}`);
    }
    const raw =
      kind === "scAddressTypeAccount" ? a.address.accountId.ed25519.value : a.address.contractId.value;
    return cachedStrKey(kind === "scAddressTypeAccount" ? "G" : "C", raw);
  },
};

// Strkey encoding (base32 + CRC16) is the costliest part of decoding an event; the same few thousand holders
// and contracts recur across millions of events, so encodings are memoised (bounded, cleared when full).
const STRKEY_CACHE_MAX = 100_000;
const strkeyCache = new Map<string, string>();

function cachedStrKey(prefix: "G" | "C", raw: Uint8Array): string {
  const cacheKey = prefix + toHex(raw);
  let out = strkeyCache.get(cacheKey);
  if (out === undefined) {
    out = prefix === "G" ? StrKey.encodeEd25519PublicKey(raw.slice()) : StrKey.encodeContract(raw.slice());
    if (strkeyCache.size >= STRKEY_CACHE_MAX) strkeyCache.clear();
    strkeyCache.set(cacheKey, out);
  }
  return out;
}

export function option<T>(inner: Codec<T>): Codec<T | null> {
  return {
    describe: `Option<${inner.describe}>`,
    encode: (v) => (v === null ? xdr.ScVal.scvVoid() : inner.encode(v)),
    decode: (v, path = "") => (v.type === "scvVoid" ? null : inner.decode(v, path)),
  };
}

export function vec<T>(inner: Codec<T>): Codec<T[]> {
  return {
    describe: `Vec<${inner.describe}>`,
    encode: (v) => xdr.ScVal.scvVec(v.map((item) => inner.encode(item))),
    decode(v, path = "") {
      const items = expect(v, "scvVec", path, `Vec<${inner.describe}>`).vec;
      if (items === null) throw new ScValDecodeError(path, "missing vector");
      return items.map((item, i) => inner.decode(item, `${path}[${i}]`));
    },
  };
}

type TupleValues<C extends readonly Codec<unknown>[]> = { -readonly [K in keyof C]: CodecValue<C[K]> };

/** A Soroban tuple: a Vec of fixed length with one layout per position. */
export function tuple<const C extends readonly Codec<unknown>[]>(codecs: C): Codec<TupleValues<C>> {
  return {
    describe: `(${codecs.map((c) => c.describe).join(", ")})`,
    encode(v) {
      const values = v as readonly unknown[];
      if (values.length !== codecs.length) throw new RangeError(`expected a ${codecs.length}-tuple`);
      return xdr.ScVal.scvVec(codecs.map((c, i) => (c as Codec<unknown>).encode(values[i])));
    },
    decode(v, path = "") {
      const items = expect(v, "scvVec", path, "tuple").vec;
      if (items === null || items.length !== codecs.length) {
        throw new ScValDecodeError(
          path,
          `expected a ${codecs.length}-tuple, got ${items?.length ?? 0} items`,
        );
      }
      return codecs.map((c, i) =>
        (c as Codec<unknown>).decode(items[i] as xdr.ScVal, `${path}[${i}]`),
      ) as TupleValues<C>;
    },
  };
}

type StructValue<F extends Record<string, Codec<unknown>>> = { [K in keyof F]: CodecValue<F[K]> };

/** `expiresAt` → `expires_at`: TypeScript fields are camelCase, contract struct fields snake_case. */
export function wireFieldName(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A contract struct: an ScMap with symbol keys sorted, as Soroban encodes structs. Decoding requires every
 * field and ignores unknown extra keys, so a contract that appends a field does not break older readers.
 */
export function struct<F extends Record<string, Codec<unknown>>>(
  name: string,
  fields: F,
): Codec<StructValue<F>> {
  const entries = Object.entries(fields)
    .map(([field, codec]) => ({
      field,
      wire: wireFieldName(field),
      codec,
      key: xdr.ScVal.scvSymbol(wireFieldName(field)),
    }))
    .sort((a, b) => (a.wire < b.wire ? -1 : a.wire > b.wire ? 1 : 0));
  const byWire = new Map(entries.map((e) => [e.wire, e]));
  return {
    describe: name,
    encode(v) {
      const obj = v as Record<string, unknown>;
      return xdr.ScVal.scvMap(
        entries.map((e) => new xdr.ScMapEntry({ key: e.key, val: e.codec.encode(obj[e.field]) })),
      );
    },
    decode(v, path = "") {
      const map = expect(v, "scvMap", path, name).map;
      if (map === null) throw new ScValDecodeError(path, `missing ${name} map`);
      const out: Record<string, unknown> = {};
      let found = 0;
      for (const entry of map) {
        if (entry.key.type !== "scvSymbol") throw new ScValDecodeError(path, `${name} has a non-symbol key`);
        const spec = byWire.get(entry.key.sym.toString());
        if (spec === undefined) continue;
        if (spec.field in out) throw new ScValDecodeError(path, `${name} repeats field ${spec.wire}`);
        out[spec.field] = spec.codec.decode(entry.val, path ? `${path}.${spec.wire}` : spec.wire);
        found++;
      }
      if (found !== entries.length) {
        const missing = entries.filter((e) => !(e.field in out)).map((e) => e.wire);
        throw new ScValDecodeError(path, `${name} lacks ${missing.join(", ")}`);
      }
      return out as StructValue<F>;
    },
  };
}

/** Reads base64 XDR for decoding (fast path for the kinds the codecs use; not re-encodable). */
export function scValFromBase64(b64: string, path = ""): xdr.ScVal {
  try {
    return readScVal(b64);
  } catch {
    throw new ScValDecodeError(path, "not a valid base64 XDR ScVal");
  }
}

export function scValToBase64(v: xdr.ScVal): string {
  return v.toXDR("base64");
}
