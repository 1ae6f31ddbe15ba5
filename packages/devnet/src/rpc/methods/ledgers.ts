// getLedgers: ledger headers and close metadata, paged by ledger sequence.
import { historyEntry, ledgerCloseMeta } from "../../chain/ledger-close.ts";
import { ledgerBounds, type MethodHandler } from "../context.ts";
import { invalidParams, invalidRequest } from "../errors.ts";
import { optionalNumber, optionalObject, optionalString, pageLimit, xdrFormat } from "../params.ts";

export const getLedgers: MethodHandler = (params, ctx) => {
  const format = xdrFormat(params);
  const pagination = optionalObject(params, "pagination");
  const cursor = pagination === undefined ? undefined : optionalString(pagination, "cursor");
  let start = optionalNumber(params, "startLedger") ?? 0;
  if (cursor !== undefined && cursor !== "") {
    if (start !== 0) throw invalidParams("startLedger and cursor cannot both be set");
    if (!/^\d+$/.test(cursor)) throw invalidParams(`invalid cursor: ${cursor}`);
    start = Number(cursor) + 1;
  } else if (start === 0) {
    throw invalidParams("startLedger must be positive");
  }
  const limit = pageLimit(
    pagination,
    ctx.limits.defaultLedgersLimit,
    ctx.limits.maxLedgersLimit,
    invalidRequest,
  );
  const { latest, oldest } = ledgerBounds(ctx);
  if (start < oldest.sequence || start > latest.sequence) {
    if (!(cursor !== undefined && start === latest.sequence + 1)) {
      throw invalidRequest(
        `start ledger must be between the oldest ledger: ${oldest.sequence} and the latest ledger: ${latest.sequence} for this rpc instance`,
      );
    }
  }
  const ledgers = [];
  let last = start - 1;
  for (let seq = start; seq <= latest.sequence && ledgers.length < limit; seq++) {
    const ledger = ctx.chain.ledger(seq);
    if (ledger === undefined) continue;
    const header = historyEntry(ledger);
    const meta = ledgerCloseMeta(ledger);
    ledgers.push({
      hash: ledger.hashHex,
      sequence: ledger.sequence,
      ledgerCloseTime: String(ledger.closeTime),
      ...(format === "json"
        ? { headerJson: header.toJson(), metadataJson: meta.toJson() }
        : { headerXdr: header.toXdr("base64"), metadataXdr: meta.toXdr("base64") }),
    });
    last = seq;
  }
  return {
    ledgers,
    latestLedger: latest.sequence,
    latestLedgerCloseTime: latest.closeTime,
    oldestLedger: oldest.sequence,
    oldestLedgerCloseTime: oldest.closeTime,
    cursor: String(last),
  };
};
