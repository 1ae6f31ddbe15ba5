// A fast reader of ScVal XDR for the indexer's hot path. The SDK's generic XDR machinery costs ~10 µs per value,
// i.e. ~40 µs per event (three topics and a data map), which alone would cap ingest below its budget of
// 15,000 events/s on two cores. This reads the value kinds the naming events use and builds objects shaped like
// the SDK's ScVal instances for those kinds (the `type` name and the fields the codecs read), so the codecs in
// scval.ts decode them unchanged. Any other kind falls back to the SDK for the whole value. Hand-written because
// no library parses XDR without building its full object model; pinned to the SDK by scval-reader.test.ts.
import { fromBase64 } from "@exodus/bytes/base64.js";
import { xdr } from "@stellar/stellar-sdk";

class Unsupported extends Error {}

// Node's Buffer decodes base64 about five times faster than @exodus/bytes (which validates strictly), and this is
// the indexer's hot path; browsers have no Buffer (the client's browser bundle runs this too) and use the library.
const NodeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: "base64"): Uint8Array } }).Buffer;
const decodeBase64: (b64: string) => Uint8Array =
  NodeBuffer === undefined ? (b64) => fromBase64(b64) : (b64) => NodeBuffer.from(b64, "base64");

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * Symbols and labels are short ASCII, where a loop costs less than a TextDecoder call (which was ~3% of the
 * indexer's CPU in a back-fill); anything else, or longer, goes to the decoder. Both give the same string for ASCII.
 */
function decodeText(bytes: Uint8Array, decoder: TextDecoder): string {
  if (bytes.length > 64) return decoder.decode(bytes);
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b >= 0x80) return decoder.decode(bytes);
    out += String.fromCharCode(b);
  }
  return out;
}

function text(bytes: Uint8Array) {
  return {
    bytes,
    toString: () => decodeText(bytes, lenientUtf8),
    toStringStrict: () => decodeText(bytes, strictUtf8),
  };
}

class Reader {
  private pos = 0;
  private readonly buf: Uint8Array;
  // DataView rather than Node's Buffer readers: the same speed in V8, and browsers have it (the client runs there).
  private readonly view: DataView;

  constructor(buf: Uint8Array) {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get done(): boolean {
    return this.pos === this.buf.length;
  }

  u32(): number {
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  i32(): number {
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }

  u64(): bigint {
    const v = this.view.getBigUint64(this.pos);
    this.pos += 8;
    return v;
  }

  i64(): bigint {
    const v = this.view.getBigInt64(this.pos);
    this.pos += 8;
    return v;
  }

  fixed(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) throw new RangeError("XDR ends early");
    const out = new Uint8Array(this.buf.buffer, this.buf.byteOffset + this.pos, n);
    this.pos += n;
    return out;
  }

  opaque(): Uint8Array {
    const n = this.u32();
    const out = this.fixed(n);
    this.pos += (4 - (n % 4)) % 4;
    return out;
  }

  bool(): boolean {
    const v = this.u32();
    if (v > 1) throw new RangeError("bad XDR bool");
    return v === 1;
  }

  scVal(depth = 0): unknown {
    if (depth > 32) throw new Unsupported();
    const type = this.u32();
    switch (type) {
      case 0:
        return { type: "scvBool", b: this.bool() };
      case 1:
        return { type: "scvVoid" };
      case 3:
        return { type: "scvU32", u32: this.u32() };
      case 4:
        return { type: "scvI32", i32: this.i32() };
      case 5:
        return { type: "scvU64", u64: this.u64() };
      case 6:
        return { type: "scvI64", i64: this.i64() };
      case 10: {
        const hi = this.i64();
        const lo = this.u64();
        return { type: "scvI128", i128: { hi, lo } };
      }
      case 13:
        return { type: "scvBytes", bytes: { value: this.opaque() } };
      case 14:
        return { type: "scvString", str: text(this.opaque()) };
      case 15:
        return { type: "scvSymbol", sym: text(this.opaque()) };
      case 16: {
        if (!this.bool()) return { type: "scvVec", vec: null };
        const n = this.u32();
        const vec: unknown[] = [];
        for (let i = 0; i < n; i++) vec.push(this.scVal(depth + 1));
        return { type: "scvVec", vec };
      }
      case 17: {
        if (!this.bool()) return { type: "scvMap", map: null };
        const n = this.u32();
        const map: unknown[] = [];
        for (let i = 0; i < n; i++) {
          const key = this.scVal(depth + 1);
          const val = this.scVal(depth + 1);
          map.push({ key, val });
        }
        return { type: "scvMap", map };
      }
      case 18:
        return { type: "scvAddress", address: this.scAddress() };
      default:
        throw new Unsupported();
    }
  }

  private scAddress(): unknown {
    const kind = this.u32();
    if (kind === 0) {
      if (this.u32() !== 0) throw new Unsupported();
      return {
        type: "scAddressTypeAccount",
        accountId: { type: "publicKeyTypeEd25519", ed25519: { value: this.fixed(32) } },
      };
    }
    if (kind === 1) return { type: "scAddressTypeContract", contractId: { value: this.fixed(32) } };
    throw new Unsupported();
  }
}

/**
 * Reads base64 ScVal XDR. The result has the SDK's shape for the kinds the codecs read; it is not an SDK
 * instance (no toXdr): use it to decode, not to re-encode. Throws on malformed XDR, as the SDK does.
 */
export function readScVal(b64: string): xdr.ScVal {
  const reader = new Reader(decodeBase64(b64));
  try {
    const value = reader.scVal();
    if (!reader.done) throw new RangeError("trailing bytes after the ScVal");
    return value as xdr.ScVal;
  } catch (err) {
    if (err instanceof Unsupported) return xdr.ScVal.fromXDR(b64, "base64");
    throw err;
  }
}
