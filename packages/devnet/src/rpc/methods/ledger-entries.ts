// getLedgerEntries: accounts, contract data and contract instances by LedgerKey.
import { xdr } from "@stellar/stellar-sdk";
import type { MethodHandler } from "../context.ts";
import { invalidParams } from "../errors.ts";
import { xdrFormat } from "../params.ts";

const MAX_KEYS = 200;

export const getLedgerEntries: MethodHandler = (params, ctx) => {
  const format = xdrFormat(params);
  const keys = params.keys;
  if (!Array.isArray(keys)) throw invalidParams("invalid parameters: keys must be an array");
  if (keys.length > MAX_KEYS)
    throw invalidParams(`key count (${keys.length}) exceeds maximum supported (${MAX_KEYS})`);
  const entries = [];
  for (const [index, raw] of keys.entries()) {
    let key: xdr.LedgerKey;
    try {
      if (typeof raw !== "string") throw new Error("not a string");
      key = xdr.LedgerKey.fromXdr(raw, "base64");
    } catch {
      throw invalidParams(`cannot unmarshal key value ${String(raw)} at index ${index}`);
    }
    if (key.type === "ttl") throw invalidParams("ledger ttl entries cannot be queried directly");
    const record = ctx.chain.entry(key);
    if (record === undefined) continue;
    entries.push({
      ...(format === "json"
        ? { keyJson: key.toJson(), dataJson: record.data.toJson() }
        : { key: key.toXdr("base64"), xdr: record.data.toXdr("base64") }),
      lastModifiedLedgerSeq: record.lastModifiedLedgerSeq,
      ...(record.liveUntilLedgerSeq === undefined ? {} : { liveUntilLedgerSeq: record.liveUntilLedgerSeq }),
    });
  }
  return { entries, latestLedger: ctx.chain.latest.sequence };
};
